import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { useLocation } from 'react-router'
import { cookieNames } from '#app/utils/cookies'
import { useHydrated } from '#app/utils/use-hydrated'
import { expectAnalytics } from '#app/modules/analytics/events'
import { ANALYTICS_LIBRARY_URL } from '#app/modules/analytics/library'
import { ANALYTICS_ENTRY_ID, choiceTouchesPage, consentEntries, consentStatus, type ConsentConfig, type ConsentState, type CookieEntry } from './entries'

/**
 * The visitor's cookie choice for the page: first what the server read from
 * the two cookies (so the server-rendered page already knows which players
 * may load), then whatever the settings in the browser change. The settings
 * themselves (vanilla-cookieconsent) and the analytics library load lazily,
 * after hydration, in their own chunks.
 */
interface ConsentContextValue {
	state: ConsentState
	config: ConsentConfig
	entries: CookieEntry[]
	/** Is this optional entry allowed (the necessary ones always are)? */
	allows: (id: string) => boolean
	/** Open the settings (JavaScript only); focus returns to `opener` (the pressed control) when they close. */
	openSettings: (opener: HTMLElement) => void
}

const ConsentContext = createContext<ConsentContextValue | null>(null)

/** Whether this page visit loaded page-effects.client (see choiceTouchesPage). */
let pageEffectsLoaded = false

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
	/** The settings (and the library) load on first need: an undecided visitor, or the footer's button. */
	const manager = useCallback(async () => {
		const m = await import('./manager.client')
		await m.startConsentManager({ ...latest.current, onChange: setState })
		return m
	}, [])
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

	const { pathname } = useLocation()
	const asks = asksForConsent(pathname)
	useEffect(() => {
		if (hydrated && asks && !latest.current.state.given) void manager()
	}, [hydrated, asks, manager])

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
		}),
		[state, config, entries, openSettings],
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
 * The banner without JavaScript: server-rendered inside <noscript>, so a
 * browser that runs scripts never shows it (the settings there come from
 * vanilla-cookieconsent instead). Accept all, necessary only, or a
 * selection are form posts to /consent, which sets the same two cookies and
 * comes back here. Shown while the visitor has not chosen, or when the
 * footer's link asks for it.
 */
export function NoScriptBanner({ showSettings }: { showSettings: boolean }) {
	const { t } = useTranslation()
	const { state, config, entries } = useConsent()
	const location = useLocation()
	if ((state.given || !asksForConsent(location.pathname)) && !showSettings) return null
	const params = new URLSearchParams(location.search)
	params.delete(SETTINGS_QUERY)
	const query = params.toString()
	const back = `${location.pathname}${query ? `?${query}` : ''}`
	const lang = location.pathname.split('/')[1] || 'en'
	const optional = entries.filter((e) => e.group === 'optional')
	const status = consentStatus(state, entries)
	return (
		<noscript>
			<div className={`consent-banner${config.forceModal && !state.given ? ' consent-banner--forced' : ''}`}>
				<form
					method="post"
					action="/consent"
					id="cookie-banner"
					className="consent-banner__box"
					aria-labelledby="cookie-banner-title"
					role={config.forceModal && !state.given ? 'dialog' : 'region'}
					aria-modal={config.forceModal && !state.given ? true : undefined}
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
		</noscript>
	)
}
