import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from '#app/i18n/translation'
import { useLocation } from 'react-router'
import { cookieNames } from '#app/utils/cookies'
import { useHydrated } from '#app/utils/use-hydrated'
import { useTopModalDialog } from '#app/utils/use-top-modal-dialog'
import { expectAnalytics } from '#app/modules/analytics/events'
import { ANALYTICS_LIBRARY_URL } from '#app/modules/analytics/library'
import {
	ANALYTICS_ENTRY_ID,
	choiceTouchesPage,
	choose,
	consentCookieHeaders,
	consentEntries,
	consentStatus,
	type ConsentConfig,
	type ConsentState,
	type CookieEntry,
} from './entries'

/**
 * The visitor's cookie choice for the page: first what the server read from
 * the two cookies (so the server-rendered page already knows which players
 * may load), then whatever the banner or the settings in the browser change.
 * The settings (vanilla-cookieconsent) and the analytics library load
 * lazily, after hydration, in their own chunks; the banner is the page's own
 * markup (CookieBanner), there with the first paint.
 */
interface ConsentContextValue {
	state: ConsentState
	config: ConsentConfig
	entries: CookieEntry[]
	/** Is this optional entry allowed (the necessary ones always are)? */
	allows: (id: string) => boolean
	/** Open the settings (JavaScript only); focus returns to `opener` (the pressed control) when they close. */
	openSettings: (opener: HTMLElement) => void
	/** A choice made in the page (the banner, the settings): the two cookies are written, then the page follows. */
	decide: (state: ConsentState) => void
}

const ConsentContext = createContext<ConsentContextValue | null>(null)

/** Whether this page visit loaded page-effects.client (see choiceTouchesPage). */
let pageEffectsLoaded = false
/** Whether this page visit loaded the settings (manager.client): a choice made in the banner is then handed to them too. */
let managerLoaded = false

export function useConsent(): ConsentContextValue {
	const value = useContext(ConsentContext)
	if (!value) throw new Error('useConsent outside ConsentProvider')
	return value
}

export function ConsentProvider({ state: serverState, config, children }: { state: ConsentState; config: ConsentConfig; children: ReactNode }) {
	const hydrated = useHydrated()
	const entries = useMemo(
		() => consentEntries({ analytics: config.analytics, analyticsScript: ANALYTICS_LIBRARY_URL }),
		[config.analytics],
	)
	const [state, setState] = useState(serverState)
	const latest = useRef({ state, config, entries })
	useEffect(() => {
		latest.current = { state, config, entries }
	})
	const decide = useCallback((next: ConsentState) => {
		const { entries, config } = latest.current
		for (const cookie of consentCookieHeaders(next, entries, config.maxAgeDays, window.location.protocol === 'https:')) {
			document.cookie = cookie
		}
		setState(next)
		// Settings already loaded keep their own record (localStorage) in line.
		if (managerLoaded) void import('./manager.client').then((m) => m.syncSettings(next))
	}, [])
	/** The settings (and the library) load on first need: the footer's button. The banner needs neither. */
	const manager = useCallback(async () => {
		const m = await import('./manager.client')
		managerLoaded = true
		await m.startConsentManager({ ...latest.current, onChange: decide })
		return m
	}, [decide])
	// A form post (the "allow and load" prompt) changes the cookies on the
	// server; the root loader's new reading wins.
	const serverKey = `${serverState.given}:${serverState.enabled.join('~')}`
	const lastServerKey = useRef(serverKey)
	useEffect(() => {
		if (lastServerKey.current === serverKey) return
		lastServerKey.current = serverKey
		setState(serverState)
		void import('./manager.client').then((m) => m.syncSettings(serverState))
	}, [serverKey, serverState])

	// Before any effect of the page tracks (layout effects run first): events
	// wait for the analytics library only while the choice allows it.
	const analyticsAllowed = Boolean(config.analyticsKey) && entries.some((entry) => entry.id === ANALYTICS_ENTRY_ID && entry.script) && state.given && state.enabled.includes(ANALYTICS_ENTRY_ID)
	useLayoutEffect(() => {
		expectAnalytics(analyticsAllowed)
	}, [analyticsAllowed])

	useEffect(() => {
		if (!hydrated) return
		// Once loaded (a script was added, analytics started), it hears every change.
		if (!pageEffectsLoaded && !choiceTouchesPage(state, entries, cookieNames(document.cookie))) return
		pageEffectsLoaded = true
		void import('./page-effects.client').then((m) => m.applyConsentToPage(state, entries, config))
	}, [hydrated, state, entries, config])

	// The opener is taken now: the settings open after their chunk loads, when focus may have moved.
	const openSettings = useCallback((opener: HTMLElement) => void manager().then((m) => m.showSettings(opener)), [manager])
	const value = useMemo<ConsentContextValue>(
		() => ({
			state,
			config,
			entries,
			allows: (id) => state.given && state.enabled.includes(id),
			openSettings,
			decide,
		}),
		[state, config, entries, openSettings, decide],
	)
	return <ConsentContext.Provider value={value}>{children}</ConsentContext.Provider>
}

/**
 * Pages that never ask: the OBS overlay is a browser source on a stream,
 * where nobody can answer and everybody would see the banner. It loads
 * nothing optional.
 */
export function asksForConsent(pathname: string): boolean {
	return pathname.split('/')[2] !== 'overlay'
}

/** The query that opens the banner's settings without JavaScript (the footer's link). */
export const SETTINGS_QUERY = 'cookie-settings'

/** The footer's "Cookie settings": a button with JavaScript, a link that shows the banner without. */
export function CookieSettingsControl() {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const { openSettings } = useConsent()
	const location = useLocation()
	if (hydrated) {
		return (
			<button type="button" className="link-button" onClick={(event) => openSettings(event.currentTarget)} aria-haspopup="dialog">
				{t('consent.settings-link')}
			</button>
		)
	}
	const params = new URLSearchParams(location.search)
	params.set(SETTINGS_QUERY, '1')
	return <a href={`${location.pathname}?${params.toString()}#cookie-banner`}>{t('consent.settings-link')}</a>
}

/**
 * The cookie banner (docs/product.md §15.5): the page's own markup, rendered
 * by the server, so it shows with the first paint, with or without
 * JavaScript. Accept all, necessary only, or a selection (the `<details>`)
 * are the buttons of one form posted to /consent, which sets the two cookies
 * and comes back here; once the page's script runs, the same choice is
 * written in the page instead (no request) and the banner goes. Shown while
 * the visitor has not chosen, or when the footer's link asks for it (without
 * JavaScript; with it the footer opens vanilla-cookieconsent's settings).
 *
 * A modal dialog (sign-in, an account step) sits in the browser's top layer
 * and makes the rest of the page inert: while one is open, the banner lives
 * inside it, above its backdrop and still usable. The operator's forced
 * banner (CONSENT_FORCE_MODAL) covers the page, and with JavaScript makes it
 * inert and takes the focus until a choice is made.
 */
export function CookieBanner({ showSettings }: { showSettings: boolean }) {
	const { t } = useTranslation()
	const { state, config, entries, decide } = useConsent()
	const location = useLocation()
	const host = useTopModalDialog()
	const ref = useRef<HTMLDivElement>(null)
	// A choice made here with JavaScript closes a banner the footer's link opened (its query stays in the address).
	const [decidedAt, setDecidedAt] = useState<string | null>(null)
	const shown = (showSettings || (!state.given && asksForConsent(location.pathname))) && decidedAt !== location.key
	const forced = shown && config.forceModal && !state.given
	useInertPage(forced, ref, host)
	if (!shown) return null
	const params = new URLSearchParams(location.search)
	params.delete(SETTINGS_QUERY)
	const query = params.toString()
	const back = `${location.pathname}${query ? `?${query}` : ''}`
	const lang = location.pathname.split('/')[1] || 'en'
	const optional = entries.filter((e) => e.group === 'optional')
	const status = consentStatus(state, entries)
	const onSubmit = (event: FormEvent<HTMLFormElement>) => {
		const submitter = (event.nativeEvent as SubmitEvent).submitter
		const choice = submitter instanceof HTMLButtonElement ? submitter.value : null
		const next =
			choice === 'all' || choice === 'necessary'
				? choose(choice, entries)
				: choice === 'custom'
					? choose(new FormData(event.currentTarget).getAll('entry').map(String), entries)
					: null
		// Anything else goes to the server as without JavaScript.
		if (!next) return
		event.preventDefault()
		decide(next)
		setDecidedAt(location.key)
	}
	const banner = (
		<div ref={ref} className={`consent-banner${forced ? ' consent-banner--forced' : ''}`}>
			<form
				method="post"
				action="/consent"
				id="cookie-banner"
				className="consent-banner__box"
				aria-labelledby="cookie-banner-title"
				role={forced ? 'dialog' : 'region'}
				aria-modal={forced ? true : undefined}
				onSubmit={onSubmit}
			>
				<input type="hidden" name="redirectTo" value={back} />
				<h2 id="cookie-banner-title">{t('consent.title')}</h2>
				<p>
					{t('consent.description')}{' '}
					<a href={`/${lang}/privacy`}>{t('consent.privacy-link')}</a>
				</p>
				{state.given ? <p className="muted">{t(`consent.status-${status}`)}</p> : null}
				<div className="consent-banner__actions">
					<button type="submit" name="choice" value="all" className="button button--primary">
						{t('consent.accept-all')}
					</button>
					<button type="submit" name="choice" value="necessary" className="button">
						{t('consent.necessary-only')}
					</button>
				</div>
				<details className="consent-banner__settings" open={showSettings}>
					<summary>{t('consent.choose')}</summary>
					<fieldset>
						<legend>{t('consent.optional')}</legend>
						{optional.map((entry) => (
							<label key={entry.id} className="consent-banner__entry">
								<input
									type="checkbox"
									name="entry"
									value={entry.id}
									defaultChecked={state.given ? state.enabled.includes(entry.id) : entry.preselected}
								/>
								<span>
									<strong>{t(`consent.entries.${entry.id}.name`)}</strong>
									<span className="muted"> {t(`consent.entries.${entry.id}.description`)}</span>
								</span>
							</label>
						))}
					</fieldset>
					<p className="muted">{t('consent.necessary-note')}</p>
					<button type="submit" name="choice" value="custom" className="button">
						{t('consent.save')}
					</button>
				</details>
			</form>
		</div>
	)
	return host ? createPortal(banner, host) : banner
}

/**
 * While the forced banner is up (with JavaScript): everything else in the
 * page is inert and the focus starts in the banner, as in a modal dialog.
 * Without JavaScript the overlay alone keeps pointers off the page.
 */
function useInertPage(on: boolean, banner: React.RefObject<HTMLElement | null>, host: HTMLElement | null) {
	useEffect(() => {
		const own = banner.current
		if (!on || !own) return
		// Every sibling on the way up to <body>; those inert already (another modal's doing) are left as they are.
		const others: Element[] = []
		for (let node: Element = own; node.parentElement && node !== document.body; node = node.parentElement) {
			for (const sibling of node.parentElement.children) if (sibling !== node && !sibling.hasAttribute('inert')) others.push(sibling)
		}
		for (const el of others) el.setAttribute('inert', '')
		if (!own.contains(document.activeElement)) own.querySelector<HTMLElement>('button, a[href]')?.focus()
		return () => {
			for (const el of others) el.removeAttribute('inert')
		}
	}, [on, banner, host])
}
