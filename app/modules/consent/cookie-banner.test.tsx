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
 * banner (the page's own markup, there with the first paint), the real footer
 * and the real vanilla-cookieconsent (manager.client.ts), which runs in
 * happy-dom and now only provides the settings the footer opens. The cookies
 * are the record; what the server makes of them (parseConsentCookies) and the
 * banner's server markup have their own tests (entries.test.ts,
 * consent-context.test.tsx). The journeys with the analytics relay, the
 * players and the Content-Security-Policy stay in tests/e2e/consent.spec.ts,
 * the first paint and the banner over a dialog's backdrop in
 * tests/e2e/phone.spec.ts.
 *
 * What happy-dom cannot show, and stays with the browser:
 * - that the forced banner's overlay keeps pointers off the page (happy-dom
 *   applies no layout and does no hit-testing); the page's `inert` is
 *   checked here;
 * - Tab kept inside the library's settings (its keydown trap acts on the
 *   browser's own focus moves, which happy-dom does not make);
 * - the cookies' lifetime as the browser keeps it: here the Max-Age the
 *   page writes is read from the write itself.
 *
 * Whether the library's settings are shown is read from its own state, the
 * class it puts on <html> (show--preferences), which its stylesheet keys on:
 * it leaves the hiding to its stylesheet, whose cascade (`all: unset` and
 * all) happy-dom does not reproduce.
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
 * provider, the page with a button that opens a modal dialog, the footer,
 * the banner), with the choice the server read from the cookies. The
 * settings' module keeps its state for a page visit, so each visit loads our
 * modules afresh.
 */
async function visit(lang: 'en' | 'de', config: ConsentConfig = CONFIG) {
	vi.resetModules()
	await i18next.changeLanguage(lang)
	document.documentElement.lang = lang
	const { ConsentProvider, CookieBanner, useConsent } = await import('./consent-context')
	const { consentEntries, parseConsentCookies } = await import('./entries')
	const { SiteFooter } = await import('#app/components/site-footer')
	const { TranslationProvider } = await import('#app/i18n/translation')
	/** Stands in for the session page's player (StreamPlayer, not exported): it reads the choice the same way. */
	function Player() {
		const { allows } = useConsent()
		return <p>{allows('twitch') ? 'Twitch player allowed' : 'Twitch player asks first'}</p>
	}
	/** Stands in for the sign-in dialog: a modal <dialog> in the page. */
	function SomeDialog() {
		return (
			<>
				<button type="button" onClick={() => document.querySelector<HTMLDialogElement>('#some-dialog')!.showModal()}>
					Open a dialog
				</button>
				<dialog id="some-dialog" aria-label="Some dialog">
					<button type="button" onClick={() => document.querySelector<HTMLDialogElement>('#some-dialog')!.close()}>
						Close the dialog
					</button>
				</dialog>
			</>
		)
	}
	const Stub = createRoutesStub([
		{
			path: '/:lang/imprint',
			Component: () => (
				<ConsentProvider state={parseConsentCookies(document.cookie, consentEntries(config))} config={config}>
					<main>
						<h1>Imprint</h1>
						<Player />
						<SomeDialog />
					</main>
					<SiteFooter locale={lang} />
					<CookieBanner showSettings={false} />
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

/** Whether the library shows its settings (see above). */
const settingsShown = () => document.documentElement.classList.contains('show--preferences')
/** The banner (a region of the page; a dialog when the operator forces it). */
const banner = () => screen.getByRole('region', { name: t('consent.title') })
const noBanner = () => waitFor(() => expect(screen.queryByRole('region', { name: t('consent.title') })).toBeNull())
/** The settings, shown. */
async function settingsDialog(): Promise<HTMLElement> {
	const dialog = await screen.findByRole('dialog', { name: t('consent.settings-title') }, { timeout: 10_000 })
	await waitFor(() => expect(settingsShown()).toBe(true))
	return dialog
}
const settingsHidden = () => waitFor(() => expect(settingsShown()).toBe(false))
const footerButton = () => within(screen.getByRole('contentinfo')).getByRole('button', { name: t('consent.settings-link') })
/** Lets the page's asynchronous work (the settings' chunk, effects) run. */
const settle = (ms = 300) => act(() => new Promise((resolve) => setTimeout(resolve, ms)))

test('an undecided visitor gets the banner at once (accept all, necessary only, let me choose), which leaves the focus alone, writes nothing and loads no library', async () => {
	await visit('en')
	const region = banner()
	for (const key of ['consent.accept-all', 'consent.necessary-only']) expect(within(region).getByRole('button', { name: t(key) })).toBeTruthy()
	expect(within(region).getByText(t('consent.choose')).tagName).toBe('SUMMARY')
	expect(within(region).getByRole('link', { name: t('consent.privacy-link') }).getAttribute('href')).toBe('/en/privacy')
	await settle()
	expect(region.contains(document.activeElement)).toBe(false)
	expect(consentCookies()).toEqual({ given: undefined, ids: undefined })
	expect(document.querySelector('script[data-cookie-entry]')).toBeNull()
	expect(screen.getByText('Twitch player asks first')).toBeTruthy()
	// The settings' library is not needed to ask: it is not even loaded.
	expect(document.getElementById('cc-main')).toBeNull()
	// Not forced: nothing in the page is inert.
	expect(document.querySelectorAll('[inert]')).toHaveLength(0)
})

test('a returning visitor (the two cookies) gets no banner, and the settings are not even loaded', async () => {
	setDecidedCookies()
	await visit('en')
	await settle()
	expect(screen.queryByRole('region', { name: t('consent.title') })).toBeNull()
	expect(document.getElementById('cc-main')).toBeNull()
})

test('necessary only (en): written in the page, no request: the flag and the necessary ids, for the configured 182 days; nothing optional loads', async () => {
	await visit('en')
	// why: document.cookie hides a cookie's attributes once it is set; the spy only listens to the writes (the value is still set).
	const writes = vi.spyOn(document, 'cookie', 'set')
	const submitted = vi.fn()
	// The region is the banner's form.
	banner().addEventListener('submit', (event) => queueMicrotask(() => submitted(event.defaultPrevented)))
	fireEvent.click(within(banner()).getByRole('button', { name: t('consent.necessary-only') }))
	await noBanner()
	// The form's post is taken over by the page.
	expect(submitted).toHaveBeenCalledWith(true)
	expect(consentCookies()).toEqual({ given: 'true', ids: NECESSARY })
	const written = writes.mock.calls.map(([cookie]) => cookie).filter((cookie) => cookie.startsWith('cookie_consent'))
	expect(written).toEqual([
		'cookie_consent=true; Path=/; Max-Age=15724800; SameSite=Lax',
		'cookie_consent_ids=sign-in~preferences~notices; Path=/; Max-Age=15724800; SameSite=Lax',
	])
	await settle()
	expect(document.querySelector('script[data-cookie-entry]')).toBeNull()
	expect(screen.getByText('Twitch player asks first')).toBeTruthy()
	expect(document.getElementById('cc-main')).toBeNull()
})

test('accept all (de): every entry’s id in the cookie, the analytics script added, the players allowed at once', async () => {
	await visit('de')
	fireEvent.click(within(banner()).getByRole('button', { name: t('consent.accept-all') }))
	await noBanner()
	expect(consentCookies()).toEqual({ given: 'true', ids: [...NECESSARY, ...OPTIONAL] })
	await waitFor(() => expect(document.querySelectorAll('script[data-cookie-entry="analytics"]')).toHaveLength(1))
	expect(screen.getByText('Twitch player allowed')).toBeTruthy()
})

test('let me choose (en): the banner’s own list, where a selection is saved as partial consent', async () => {
	await visit('en')
	const region = banner()
	fireEvent.click(within(region).getByText(t('consent.choose')))
	// Nothing optional is preselected.
	for (const id of OPTIONAL) expect((within(region).getByRole('checkbox', { name: new RegExp(t(`consent.entries.${id}.name`)) }) as HTMLInputElement).checked).toBe(false)
	fireEvent.click(within(region).getByRole('checkbox', { name: new RegExp(t('consent.entries.twitch.name')) }))
	fireEvent.click(within(region).getByRole('button', { name: t('consent.save') }))
	await noBanner()
	expect(consentCookies()).toEqual({ given: 'true', ids: [...NECESSARY, 'twitch'] })
	expect(screen.getByText('Twitch player allowed')).toBeTruthy()
	expect(document.querySelector('script[data-cookie-entry]')).toBeNull()
})

test('the footer’s “Cookie settings” (de) opens the settings with the choice the cookies hold; Escape closes them, focus goes back to the button, no banner', async () => {
	setDecidedCookies(['twitch'])
	await visit('de')
	const button = footerButton()
	act(() => button.focus())
	fireEvent.click(button)
	const settings = await settingsDialog()
	// Necessary entries are on and cannot be switched off.
	const sign = within(settings).getByRole('checkbox', { name: t('consent.entries.sign-in.name') }) as HTMLInputElement
	expect([sign.checked, sign.disabled]).toEqual([true, true])
	expect((within(settings).getByRole('checkbox', { name: t('consent.entries.twitch.name') }) as HTMLInputElement).checked).toBe(true)
	expect((within(settings).getByRole('checkbox', { name: t('consent.entries.kick.name') }) as HTMLInputElement).checked).toBe(false)
	await waitFor(() => expect(settings.contains(document.activeElement)).toBe(true))
	fireEvent.keyDown(document.activeElement!, { key: 'Escape', keyCode: 27 })
	await settingsHidden()
	expect(document.activeElement).toBe(button)
	// Closing the settings is no new choice, and the library never shows a banner of its own.
	expect(consentCookies()).toEqual({ given: 'true', ids: [...NECESSARY, 'twitch'] })
	expect(document.documentElement.classList.contains('show--consent')).toBe(false)
	expect(screen.queryByRole('region', { name: t('consent.title') })).toBeNull()
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
	await settingsHidden()
	expect(document.activeElement).toBe(button)
})

test('before the choice too: settings opened from the footer and closed leave the banner up; a choice saved in them takes it down', async () => {
	await visit('de')
	const button = footerButton()
	act(() => button.focus())
	fireEvent.click(button)
	let settings = await settingsDialog()
	fireEvent.keyDown(settings, { key: 'Escape', keyCode: 27 })
	await settingsHidden()
	await waitFor(() => expect(document.activeElement).toBe(button))
	expect(banner()).toBeTruthy()
	expect(consentCookies()).toEqual({ given: undefined, ids: undefined })

	fireEvent.click(button)
	settings = await settingsDialog()
	fireEvent.click(within(settings).getByRole('checkbox', { name: t('consent.entries.kick.name') }))
	fireEvent.click(within(settings).getByRole('button', { name: t('consent.save') }))
	await settingsHidden()
	await noBanner()
	expect(consentCookies()).toEqual({ given: 'true', ids: [...NECESSARY, 'kick'] })
})

test('a modal dialog opened over the undecided banner takes it inside, above its backdrop and usable; closed undecided, the banner is back in the page', async () => {
	const matches = Element.prototype.matches
	// why: happy-dom matches no dialog as :modal; the one dialog here opens with showModal().
	const modal = vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selector: string) {
		return selector === ':modal' ? this instanceof HTMLDialogElement && this.open : matches.call(this, selector)
	})
	await visit('en')
	const dialog = document.querySelector<HTMLDialogElement>('#some-dialog')!
	fireEvent.click(screen.getByRole('button', { name: 'Open a dialog' }))
	await waitFor(() => expect(dialog.contains(banner())).toBe(true))
	fireEvent.click(within(dialog).getByRole('button', { name: 'Close the dialog' }))
	await waitFor(() => expect(dialog.contains(banner())).toBe(false))
	expect(banner()).toBeTruthy()

	fireEvent.click(screen.getByRole('button', { name: 'Open a dialog' }))
	await waitFor(() => expect(dialog.contains(banner())).toBe(true))
	fireEvent.click(within(banner()).getByRole('button', { name: t('consent.necessary-only') }))
	await noBanner()
	expect(consentCookies()).toEqual({ given: 'true', ids: NECESSARY })
	expect(dialog.open).toBe(true)
	modal.mockRestore()
})

test('forced (CONSENT_FORCE_MODAL): the banner is a modal dialog over the page, which is inert until a choice, and takes the focus', async () => {
	await visit('en', { ...CONFIG, forceModal: true })
	const forced = screen.getByRole('dialog', { name: t('consent.title') })
	expect(forced.getAttribute('aria-modal')).toBe('true')
	await waitFor(() => expect(forced.contains(document.activeElement)).toBe(true))
	// Everything but the banner is inert: the page, the footer and its settings button.
	await waitFor(() => expect(screen.getByRole('heading', { name: 'Imprint', hidden: true }).closest('[inert]')).not.toBeNull())
	expect(screen.getByRole('contentinfo', { hidden: true }).closest('[inert]')).not.toBeNull()
	expect(forced.closest('[inert]')).toBeNull()
	expect(consentCookies()).toEqual({ given: undefined, ids: undefined })
	// A choice: the banner goes, the page is usable again.
	fireEvent.click(within(forced).getByRole('button', { name: t('consent.necessary-only') }))
	await waitFor(() => expect(screen.queryByRole('dialog', { name: t('consent.title') })).toBeNull())
	expect(consentCookies()).toEqual({ given: 'true', ids: NECESSARY })
	await waitFor(() => expect(document.querySelectorAll('[inert]')).toHaveLength(0))
})
