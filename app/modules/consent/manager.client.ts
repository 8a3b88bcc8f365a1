import * as CookieConsent from 'vanilla-cookieconsent'
import 'vanilla-cookieconsent/dist/cookieconsent.css'
import '#app/styles/consent.css'
import i18next from 'i18next'
import { choose, type ConsentConfig, type ConsentState, type CookieEntry, type TargetCookie } from './entries'

/**
 * The cookie settings in the browser: vanilla-cookieconsent, loaded in its
 * own chunk when the footer's "Cookie settings" is pressed. Only its
 * settings dialog is used: the banner is the page's own (CookieBanner, with
 * the first paint). Our two cookies are the record (the server reads them,
 * and a choice made in the banner or without JavaScript lands there too);
 * the library keeps its own state in localStorage and is brought in line
 * with the cookies whenever they say something else. Each cookie entry is
 * one of the library's categories; the necessary ones are read-only.
 */

/** The library's own record of what it showed (localStorage, not a cookie). */
const LIBRARY_STORAGE_KEY = 'dareboost_cookie_settings'

interface Options {
	state: ConsentState
	config: ConsentConfig
	entries: CookieEntry[]
	/** Writes the two cookies and tells the page (ConsentProvider's decide). */
	onChange: (state: ConsentState) => void
}

let started: Promise<void> | null = null
let current: Options | null = null
/** While we align the library with the cookies, its callbacks must not write them back. */
let syncing = false
/** The control that asked for the settings: focus goes back there when they close. */
let opener: HTMLElement | null = null

export function startConsentManager(options: Options): Promise<void> {
	current = options
	started ??= run(options)
	return started
}

async function run({ state, config, entries }: Options): Promise<void> {
	// No choice in the cookies (never made, expired, or deleted): whatever
	// the library remembers is stale.
	if (!state.given) {
		try {
			localStorage.removeItem(LIBRARY_STORAGE_KEY)
		} catch {
			// Storage refused: the library will ask again, which is right.
		}
	}
	const lang = document.documentElement.lang || 'en'
	await CookieConsent.run({
		autoShow: false,
		mode: 'opt-in',
		revision: 0,
		hideFromBots: false,
		cookie: { name: LIBRARY_STORAGE_KEY, useLocalStorage: true, expiresAfterDays: config.maxAgeDays },
		guiOptions: {
			preferencesModal: { layout: 'box', equalWeightButtons: true },
		},
		categories: Object.fromEntries(
			entries.map((entry) => [
				entry.id,
				{ enabled: entry.group === 'necessary' || entry.preselected, readOnly: entry.group === 'necessary' },
			]),
		),
		language: { default: lang, translations: { [lang]: translation(entries) } },
		onFirstConsent: ({ cookie }) => record(cookie.categories),
		onChange: ({ cookie }) => record(cookie.categories),
		// The library returns focus to what was focused when the settings
		// opened, which may have moved while their chunk loaded. The opener
		// is ours, taken when the button was pressed.
		onModalHide: ({ modalName }) => {
			if (modalName !== 'preferencesModal') return
			const back = opener
			opener = null
			if (!back) return
			// After the library's own focus moves.
			queueMicrotask(() => {
				if (back.isConnected) back.focus()
			})
		},
	})
	if (state.given) syncSettings(state)
}

/** The library's choice became the visitor's: the page writes the two cookies and follows. */
function record(categories: string[]): void {
	if (syncing || !current) return
	const { entries, onChange } = current
	onChange(choose(categories, entries))
}

/** Align the library with the cookies (a choice made by a form post, or on another tab). */
export function syncSettings(state: ConsentState): void {
	if (!current || !started) return
	current = { ...current, state }
	const { entries } = current
	if (!state.given) return
	const wanted = entries.filter((e) => e.group === 'necessary' || state.enabled.includes(e.id)).map((e) => e.id)
	const accepted = CookieConsent.validConsent() ? CookieConsent.getUserPreferences().acceptedCategories : []
	if (accepted.length === wanted.length && wanted.every((id) => accepted.includes(id))) return
	syncing = true
	try {
		CookieConsent.acceptCategory(wanted)
	} finally {
		syncing = false
	}
	CookieConsent.hide()
}

/** Opens the settings; `from` (the control that asked for them) gets focus back when they close. */
export async function showSettings(from: HTMLElement): Promise<void> {
	await started
	opener = from
	CookieConsent.showPreferences()
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function describeTarget(target: TargetCookie): string {
	return 'name' in target ? target.name : `${target.prefix}…`
}

/** The library's texts from our messages (it takes HTML: every message is escaped). */
function translation(entries: CookieEntry[]): CookieConsent.Translation {
	const t = (key: string, options?: Record<string, unknown>) => escapeHtml(i18next.t(key, options ?? {}))
	const lang = document.documentElement.lang || 'en'
	const privacy = `<a href="/${lang}/privacy">${t('consent.privacy-link')}</a>`
	// No consentModal: the library then never builds its own banner (the page
	// has its own); its types ask for one, its code does without.
	return {
		preferencesModal: {
			title: t('consent.settings-title'),
			acceptAllBtn: t('consent.accept-all'),
			acceptNecessaryBtn: t('consent.necessary-only'),
			savePreferencesBtn: t('consent.save'),
			closeIconLabel: t('consent.close'),
			sections: [
				{ description: `${t('consent.settings-intro')} ${privacy}` },
				...entries.map((entry) => {
					const name = i18next.t(`consent.entries.${entry.id}.name`)
					const links = (entry.links ?? [])
						.map((l) => `<a href="${escapeHtml(l.url)}" target="_blank" rel="noopener noreferrer">${t('consent.privacy-of', { name: l.provider })}</a>`)
						.join(' · ')
					return {
						title: escapeHtml(name),
						description: [t(`consent.entries.${entry.id}.description`), links].filter(Boolean).join('<br>'),
						linkedCategory: entry.id,
						...(entry.targetCookies?.length
							? {
									cookieTable: {
										caption: t('consent.cookies'),
										headers: { name: t('consent.cookie-name') },
										body: entry.targetCookies.map((c) => ({ name: escapeHtml(describeTarget(c)) })),
									},
								}
							: {}),
					}
				}),
			],
		},
	} as CookieConsent.Translation
}
