// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { createRoutesStub } from 'react-router'
import * as CookieConsent from 'vanilla-cookieconsent'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { CONSENT_COOKIES } from '#tests/e2e/support/consent'
import { resources } from '#locales/index'
import type { ConsentConfig } from './entries'

/**
 * The cookie banner with JavaScript: the real ConsentProvider, the real
 * footer and the real vanilla-cookieconsent (manager.client.ts), which runs
 * in happy-dom. The cookies are the record; what the server makes of them
 * (parseConsentCookies) and the banner without JavaScript have their own
 * tests (entries.test.ts, consent-context.test.tsx). The journeys with the
 * analytics relay, the players and the Content-Security-Policy stay in
 * tests/e2e/consent.spec.ts.
 *
 * What happy-dom cannot show, and stays with the browser:
 * - that the forced banner blocks the page: the library puts a class on
 *   <html> (checked here) and the stylesheet lays an overlay over the page;
 *   happy-dom applies no layout and does no hit-testing, so a click "behind"
 *   the banner cannot be refused here;
 * - Tab kept inside the banner and the settings (the library's keydown trap
 *   acts on the browser's own focus moves, which happy-dom does not make);
 * - the cookies' lifetime as the browser keeps it: here the Max-Age the
 *   page writes is read from the write itself.
 *
 * Shown or hidden is read from the library's own state, the class it puts
 * on <html> (show--consent, show--preferences), which its stylesheet keys
 * on. The elements alone do not tell: vanilla-cookieconsent 3.1 builds the
 * banner along with the settings, without aria-hidden, and leaves the
 * hiding to its stylesheet, whose cascade (`all: unset` and all) happy-dom
 * does not reproduce, so the role queries would see an unshown banner.
 */

const NECESSARY = ['sign-in', 'preferences', 'notices']
const OPTIONAL = ['analytics', 'twitch', 'youtube', 'kick']
const CONFIG: ConsentConfig = { analytics: true, maxAgeDays: 182, forceModal: false }

// The settings take their texts from i18next's own instance, as in the browser (entry.client.tsx).
await i18next.use(initReactI18next).init({ lng: 'en', resources, interpolation: { escapeValue: false } })
const t = (key: string) => i18next.t(key)

beforeEach(() => {
	// why: happy-dom does not load script files; the analytics entry's script
	// (the PostHog library) is added to the page on consent, and here it counts
	// as loaded instead of logging a failed load. Nothing runs it either way.
	;(window as unknown as { happyDOM: { settings: { handleDisabledFileLoadingAsSuccess: boolean } } }).happyDOM.settings.handleDisabledFileLoadingAsSuccess = true
})

afterEach(() => {
	cleanup()
	// The library keeps its state for the page's life; every test is a new page visit.
	CookieConsent.reset(true)
	for (const name of document.cookie.split(';').map((pair) => pair.split('=')[0]!.trim()).filter(Boolean)) {
		document.cookie = `${name}=; Max-Age=0; Path=/`
	}
	localStorage.clear()
	for (const script of document.querySelectorAll('script[data-cookie-entry]')) script.remove()
	document.documentElement.className = ''
})

/** A returning visitor's cookies (the e2e suite's "decided" visitor), optionally with more entries allowed. */
function setDecidedCookies(extra: string[] = []) {
	document.cookie = `cookie_consent=${CONSENT_COOKIES.cookie_consent}; Path=/`
	document.cookie = `cookie_consent_ids=${[CONSENT_COOKIES.cookie_consent_ids, ...extra].join('~')}; Path=/`
}

function consentCookies() {
	const pairs = new Map(document.cookie.split('; ').map((pair) => pair.split('=') as [string, string]))
	return { given: pairs.get('cookie_consent'), ids: pairs.get('cookie_consent_ids')?.split('~') }
}

/**
 * A page visit in `lang`: the page as the root lays it out (the consent
 * provider, the page, the footer), with the choice the server read from the
 * cookies. The settings' module keeps its state for a page visit, so each
 * visit loads our modules afresh.
 */
async function visit(lang: 'en' | 'de', config: ConsentConfig = CONFIG) {
	vi.resetModules()
	await i18next.changeLanguage(lang)
	document.documentElement.lang = lang
	const { ConsentProvider, useConsent } = await import('./consent-context')
	const { consentEntries, parseConsentCookies } = await import('./entries')
	const { SiteFooter } = await import('#app/components/site-footer')
	const { TranslationProvider } = await import('#app/i18n/translation')
	/** Stands in for the session page's player (StreamPlayer, not exported): it reads the choice the same way. */
	function Player() {
		const { allows } = useConsent()
		return <p>{allows('twitch') ? 'Twitch player allowed' : 'Twitch player asks first'}</p>
	}
	const Stub = createRoutesStub([
		{
			path: '/:lang/imprint',
			Component: () => (
				<ConsentProvider state={parseConsentCookies(document.cookie, consentEntries(config))} config={config}>
					<main>
						<h1>Imprint</h1>
						<Player />
					</main>
					<SiteFooter locale={lang} />
				</ConsentProvider>
			),
		},
	])
	render(
		<TranslationProvider>
			<Stub initialEntries={[`/${lang}/imprint`]} />
		</TranslationProvider>,
	)
	await screen.findByRole('heading', { name: 'Imprint' })
}

/** Which of the library's two dialogs it shows (see above). */
function shown() {
	const html = document.documentElement.classList
	return { banner: html.contains('show--consent'), settings: html.contains('show--preferences') }
}
/** The banner, shown. */
async function banner(): Promise<HTMLElement> {
	const dialog = await screen.findByRole('dialog', { name: t('consent.title') }, { timeout: 10_000 })
	await waitFor(() => expect(shown().banner).toBe(true))
	return dialog
}
/** The settings, shown. */
async function settingsDialog(): Promise<HTMLElement> {
	const dialog = await screen.findByRole('dialog', { name: t('consent.settings-title') }, { timeout: 10_000 })
	await waitFor(() => expect(shown().settings).toBe(true))
	return dialog
}
const nothingShown = () => waitFor(() => expect(shown()).toEqual({ banner: false, settings: false }))
const footerButton = () => within(screen.getByRole('contentinfo')).getByRole('button', { name: t('consent.settings-link') })
/** Lets the page's asynchronous work (the settings' chunk, effects) run. */
const settle = (ms = 300) => act(() => new Promise((resolve) => setTimeout(resolve, ms)))

test('an undecided visitor gets the banner (accept all, necessary only, let me choose), which takes the focus and writes nothing yet', async () => {
	await visit('en')
	const dialog = await banner()
	for (const key of ['consent.accept-all', 'consent.necessary-only', 'consent.choose']) {
		expect(within(dialog).getByRole('button', { name: t(key) })).toBeTruthy()
	}
	expect(within(dialog).getByRole('link', { name: t('consent.privacy-link') }).getAttribute('href')).toBe('/en/privacy')
	// The library focuses its banner shortly after it shows (a first visit).
	await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true))
	// Not forced: the page behind stays usable.
	expect(document.documentElement.classList.contains('disable--interaction')).toBe(false)
	expect(consentCookies()).toEqual({ given: undefined, ids: undefined })
	expect(document.querySelector('script[data-cookie-entry]')).toBeNull()
	expect(screen.getByText('Twitch player asks first')).toBeTruthy()
})

test('a returning visitor (the two cookies) gets no banner, and the settings are not even loaded', async () => {
	setDecidedCookies()
	await visit('en')
	await settle()
	expect(screen.queryByRole('dialog')).toBeNull()
	expect(shown()).toEqual({ banner: false, settings: false })
	// The library's container is only made once the settings load.
	expect(document.getElementById('cc-main')).toBeNull()
})

test('necessary only (en): the flag and the necessary ids, for the configured 182 days; nothing optional loads', async () => {
	await visit('en')
	// why: document.cookie hides a cookie's attributes once it is set; the spy only listens to the writes (the value is still set).
	const writes = vi.spyOn(document, 'cookie', 'set')
	fireEvent.click(within(await banner()).getByRole('button', { name: t('consent.necessary-only') }))
	await nothingShown()
	expect(consentCookies()).toEqual({ given: 'true', ids: NECESSARY })
	const written = writes.mock.calls.map(([cookie]) => cookie).filter((cookie) => cookie.startsWith('cookie_consent'))
	expect(written).toEqual([
		'cookie_consent=true; Path=/; Max-Age=15724800; SameSite=Lax',
		'cookie_consent_ids=sign-in~preferences~notices; Path=/; Max-Age=15724800; SameSite=Lax',
	])
	await settle()
	expect(document.querySelector('script[data-cookie-entry]')).toBeNull()
	expect(screen.getByText('Twitch player asks first')).toBeTruthy()
})

test('accept all (de): every entry’s id in the cookie, the analytics script added, the players allowed at once', async () => {
	await visit('de')
	fireEvent.click(within(await banner()).getByRole('button', { name: t('consent.accept-all') }))
	await nothingShown()
	expect(consentCookies()).toEqual({ given: 'true', ids: [...NECESSARY, ...OPTIONAL] })
	await waitFor(() => expect(document.querySelectorAll('script[data-cookie-entry="analytics"]')).toHaveLength(1))
	expect(screen.getByText('Twitch player allowed')).toBeTruthy()
})

test('let me choose (en): the settings, where a selection is saved as partial consent', async () => {
	await visit('en')
	fireEvent.click(within(await banner()).getByRole('button', { name: t('consent.choose') }))
	const settings = await settingsDialog()
	// Necessary entries are on and cannot be switched off; nothing optional is preselected.
	const sign = within(settings).getByRole('checkbox', { name: t('consent.entries.sign-in.name') }) as HTMLInputElement
	expect([sign.checked, sign.disabled]).toEqual([true, true])
	for (const id of OPTIONAL) expect((within(settings).getByRole('checkbox', { name: t(`consent.entries.${id}.name`) }) as HTMLInputElement).checked).toBe(false)
	fireEvent.click(within(settings).getByRole('checkbox', { name: t('consent.entries.twitch.name') }))
	fireEvent.click(within(settings).getByRole('button', { name: t('consent.save') }))
	await nothingShown()
	expect(consentCookies()).toEqual({ given: 'true', ids: [...NECESSARY, 'twitch'] })
	expect(screen.getByText('Twitch player allowed')).toBeTruthy()
	expect(document.querySelector('script[data-cookie-entry]')).toBeNull()
})

test('the footer’s “Cookie settings” (de) reopens the settings with the choice the cookies hold; Escape closes them, focus goes back to the button, no banner', async () => {
	setDecidedCookies(['twitch'])
	await visit('de')
	const button = footerButton()
	act(() => button.focus())
	fireEvent.click(button)
	const settings = await settingsDialog()
	expect((within(settings).getByRole('checkbox', { name: t('consent.entries.twitch.name') }) as HTMLInputElement).checked).toBe(true)
	expect((within(settings).getByRole('checkbox', { name: t('consent.entries.kick.name') }) as HTMLInputElement).checked).toBe(false)
	await waitFor(() => expect(settings.contains(document.activeElement)).toBe(true))
	fireEvent.keyDown(document.activeElement!, { key: 'Escape', keyCode: 27 })
	await nothingShown()
	expect(document.activeElement).toBe(button)
	// Closing the settings is no new choice.
	expect(consentCookies()).toEqual({ given: 'true', ids: [...NECESSARY, 'twitch'] })
})

test('focus goes back to the footer’s button even when it moved elsewhere while the settings were loading', async () => {
	setDecidedCookies()
	await visit('de')
	const button = footerButton()
	act(() => button.focus())
	fireEvent.click(button)
	// The settings' chunk is on its way; the focus moves on meanwhile (the library alone would return it there).
	const elsewhere = within(screen.getByRole('contentinfo')).getByRole('link', { name: t('footer.imprint') })
	act(() => elsewhere.focus())
	const settings = await settingsDialog()
	await waitFor(() => expect(settings.contains(document.activeElement)).toBe(true))
	fireEvent.keyDown(document.activeElement!, { key: 'Escape', keyCode: 27 })
	await nothingShown()
	expect(document.activeElement).toBe(button)
})

test('before the choice too: the banner has taken the focus, and settings opened from the footer give it back to the button, not to the banner', async () => {
	await visit('de')
	const dialog = await banner()
	await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true))
	const button = footerButton()
	act(() => button.focus())
	fireEvent.click(button)
	const settings = await settingsDialog()
	await waitFor(() => expect(settings.contains(document.activeElement)).toBe(true))
	fireEvent.keyDown(document.activeElement!, { key: 'Escape', keyCode: 27 })
	await waitFor(() => expect(shown().settings).toBe(false))
	await waitFor(() => expect(document.activeElement).toBe(button))
	// No choice was made: the banner is still up.
	expect(shown().banner).toBe(true)
	expect(consentCookies()).toEqual({ given: undefined, ids: undefined })
})

test('forced (CONSENT_FORCE_MODAL): the banner sits in the middle with the page switched off, and only a choice dismisses it', async () => {
	await visit('en', { ...CONFIG, forceModal: true })
	const dialog = await banner()
	expect(dialog.classList.contains('cm--middle')).toBe(true)
	expect(document.documentElement.classList.contains('disable--interaction')).toBe(true)
	await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true))
	// Escape does not dismiss it.
	fireEvent.keyDown(document.activeElement!, { key: 'Escape', keyCode: 27 })
	await settle(100)
	expect(await banner()).toBe(dialog)
	// Nor does leaving the settings without a choice, by Escape or by their close button: the banner is still up.
	fireEvent.click(within(dialog).getByRole('button', { name: t('consent.choose') }))
	let settings = await settingsDialog()
	fireEvent.keyDown(settings, { key: 'Escape', keyCode: 27 })
	await waitFor(() => expect(shown().settings).toBe(false))
	expect(await banner()).toBe(dialog)
	fireEvent.click(within(dialog).getByRole('button', { name: t('consent.choose') }))
	settings = await settingsDialog()
	fireEvent.click(within(settings).getByRole('button', { name: t('consent.close') }))
	await waitFor(() => expect(shown().settings).toBe(false))
	expect(await banner()).toBe(dialog)
	expect(document.documentElement.classList.contains('disable--interaction')).toBe(true)
	expect(consentCookies()).toEqual({ given: undefined, ids: undefined })
	// A choice: the banner goes, the page is usable again.
	fireEvent.click(within(dialog).getByRole('button', { name: t('consent.necessary-only') }))
	await nothingShown()
	expect(consentCookies()).toEqual({ given: 'true', ids: NECESSARY })
	await waitFor(() => expect(document.documentElement.classList.contains('disable--interaction')).toBe(false))
})
