import { randomBytes } from 'node:crypto'
import { expect, test, type Page } from './support/test'
import { clearCookiesButConsent } from './support/consent'
import { readyAccount } from './support/accounts'
import { inOneMode, type LANGS, tr } from './support/i18n'

/**
 * Google and Twitch sign-in end to end. The real providers are outside this
 * machine, so the server under test talks to OpenID Connect stand-ins on
 * loopback (the `oidc-provider` package; tests/support/identity-providers.js,
 * started by start-server.js): the browser really goes to the provider,
 * signs in on its login page, allows the consent, and comes back through the
 * app's callback with a code the app exchanges and an ID token it verifies.
 * Any username signs in there; each test uses usernames of its own, so each
 * is a fresh provider account (tests run in parallel).
 */

type Lang = (typeof LANGS)[number]
type ProviderName = 'Google' | 'Twitch'

/** A provider username nobody else in this run uses (the stand-in takes a-z 0-9 _, up to 25). */
function providerUsername(tag: string) {
	return `${tag}_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
}

/** On /{lang}/login: "Continue with Twitch" (always shown) or "Continue with Google" (under "Other login methods"). */
async function continueWith(page: Page, lang: Lang, provider: ProviderName) {
	await page.goto(`/${lang}/login`)
	const form = page.getByRole('main')
	if (provider === 'Google') {
		const details = form.locator('details.other-methods')
		if ((await details.getAttribute('open')) === null) await form.getByText(tr(lang, 'auth.other-methods')).click()
	}
	await form.getByRole('button', { name: tr(lang, provider === 'Google' ? 'auth.continue-with-google' : 'auth.continue-with-twitch') }).click()
}

/** At the provider: its own login page, as a person fills it in. */
async function signInAtProvider(page: Page, provider: ProviderName, username: string) {
	await expect(page.getByRole('heading', { name: `Sign in to ${provider}` })).toBeVisible()
	await page.getByLabel('Username').fill(username)
	await page.getByLabel('Password').fill('provider password')
	await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/** At the provider: its consent page for Dareboost. */
async function answerConsent(page: Page, answer: 'Allow' | 'Deny') {
	await expect(page.getByRole('heading', { name: 'Authorize Dareboost' })).toBeVisible()
	await page.getByRole('button', { name: answer }).click()
}

/** Back on /{lang}/confirm, signed in: the account-confirmed card and the signed-in header. */
async function expectSignedInOnConfirm(page: Page, lang: Lang) {
	await expect(page).toHaveURL(new RegExp(`/${lang}/confirm\\?`))
	await expect(page.getByRole('heading', { name: tr(lang, 'auth.email-confirmed-title') })).toBeVisible()
	await expect(page.getByRole('button', { name: tr(lang, 'auth.sign-out') })).toBeVisible()
	expect(new URL(page.url()).searchParams.get('error')).toBeNull()
}

/** A new account has no username yet: leaving /confirm, the username dialog asks for one. */
async function expectUsernameDialog(page: Page, lang: Lang) {
	await page.getByRole('link', { name: tr(lang, 'auth.email-confirmed-to-home') }).click()
	const dialog = page.getByRole('dialog')
	await expect(dialog.getByRole('heading', { name: tr(lang, 'account.complete-title') })).toBeVisible()
	return dialog
}

/** Back on /{lang}/confirm with a translated error, and nobody signed in. */
async function expectRefused(page: Page, lang: Lang) {
	await expect(page).toHaveURL(new RegExp(`/${lang}/confirm\\?`))
	expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied')
	await expect(page.getByRole('heading', { name: tr(lang, 'pages.confirm.title') })).toBeVisible()
	await expect(page.getByRole('alert').getByText(tr(lang, 'errors.error-unknown'))).toBeVisible()
	await expect(page.getByRole('heading', { name: tr(lang, 'auth.email-confirmed-title') })).toHaveCount(0)
	await expect(page.getByRole('button', { name: tr(lang, 'auth.sign-out') })).toHaveCount(0)
	await expect(page.getByRole('link', { name: tr(lang, 'nav.sign-in') })).toBeVisible()
	const cookies = await page.context().cookies()
	expect(cookies.filter((c) => c.name.includes('session_token'))).toEqual([])
}

for (const [index, lang] of (['en', 'de'] as const).entries()) {
	test.describe(`Google and Twitch sign-in (${lang})`, inOneMode(index), () => {
		test('Twitch: provider login, back on /confirm signed in, then the username dialog', async ({ page }) => {
			await continueWith(page, lang, 'Twitch')
			await signInAtProvider(page, 'Twitch', providerUsername('tw'))
			await answerConsent(page, 'Allow')
			await expectSignedInOnConfirm(page, lang)
			expect(new URL(page.url()).searchParams.get('redirect-to')).toBe(`/${lang}`)
			await expectUsernameDialog(page, lang)
		})

		test('Google, under "other login methods": provider login, back on /confirm signed in, then the username dialog', async ({ page }) => {
			await continueWith(page, lang, 'Google')
			await signInAtProvider(page, 'Google', providerUsername('gg'))
			await answerConsent(page, 'Allow')
			await expectSignedInOnConfirm(page, lang)
			await expectUsernameDialog(page, lang)
		})

		test('signing in with the same Twitch account again lands on the same account', async ({ page }) => {
			const twitchUser = providerUsername('again')
			await continueWith(page, lang, 'Twitch')
			await signInAtProvider(page, 'Twitch', twitchUser)
			await answerConsent(page, 'Allow')
			await expectSignedInOnConfirm(page, lang)

			const dialog = await expectUsernameDialog(page, lang)
			const username = `o_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
			await dialog.getByLabel(tr(lang, 'account.username')).fill(username)
			await dialog.getByRole('button', { name: tr(lang, 'account.complete-submit') }).click()
			await page.getByRole('dialog').getByRole('button', { name: tr(lang, 'account.terms-accept') }).click()
			await expect(page.getByRole('dialog')).toHaveCount(0)
			await expect(page.getByRole('link', { name: username })).toBeVisible()

			await page.getByRole('button', { name: tr(lang, 'auth.sign-out') }).click()
			await expect(page.getByRole('link', { name: tr(lang, 'nav.sign-in') })).toBeVisible()
			await expect(page.getByRole('link', { name: username })).toHaveCount(0)

			// Twitch still remembers this browser (its own session and the
			// consent given): it sends the browser straight back, signed in.
			await continueWith(page, lang, 'Twitch')
			await expectSignedInOnConfirm(page, lang)
			await expect(page.getByRole('link', { name: username })).toBeVisible()
			await page.getByRole('button', { name: tr(lang, 'auth.sign-out') }).click()
			await expect(page.getByRole('link', { name: tr(lang, 'nav.sign-in') })).toBeVisible()

			// Like a browser on another device: nothing remembered, neither by the
			// app nor by the provider, whose login page asks again.
			await clearCookiesButConsent(page.context())
			await continueWith(page, lang, 'Twitch')
			await signInAtProvider(page, 'Twitch', twitchUser)
			await answerConsent(page, 'Allow')
			await expectSignedInOnConfirm(page, lang)
			// The same account: its username in the header, and nothing left to complete.
			await expect(page.getByRole('link', { name: username })).toBeVisible()
			await page.getByRole('link', { name: tr(lang, 'auth.email-confirmed-to-home') }).click()
			await expect(page).toHaveURL(new RegExp(`/${lang}$`))
			await expect(page.getByRole('link', { name: username })).toBeVisible()
			await expect(page.getByRole('dialog')).toHaveCount(0)
		})

		test('Twitch: denying consent at the provider comes back as a translated error, signed out', async ({ page }) => {
			await continueWith(page, lang, 'Twitch')
			await signInAtProvider(page, 'Twitch', providerUsername('deny'))
			await answerConsent(page, 'Deny')
			await expectRefused(page, lang)
		})

		test('Google: cancelling at the provider login comes back as a translated error, signed out', async ({ page }) => {
			await continueWith(page, lang, 'Google')
			await expect(page.getByRole('heading', { name: 'Sign in to Google' })).toBeVisible()
			await page.getByRole('button', { name: 'Cancel' }).click()
			await expectRefused(page, lang)
		})
	})
}

test('settings: connect Twitch to a password account, sign in with it, then disconnect it', async ({ page }) => {
	const lang = 'de'
	const { username } = await readyAccount(page, lang, 'link')
	const twitchUser = providerUsername('link')
	await page.goto(`/${lang}/settings`)
	const methods = page.getByRole('region', { name: tr(lang, 'settings.methods-title') })
	await expect(methods.getByText(tr(lang, 'settings.method-email'))).toBeVisible()
	// The only method: nothing to disconnect yet.
	await expect(methods.getByRole('button', { name: tr(lang, 'settings.method-disconnect', { provider: 'Twitch' }) })).toHaveCount(0)

	await methods.getByRole('button', { name: tr(lang, 'settings.method-connect', { provider: 'Twitch' }) }).click()
	await signInAtProvider(page, 'Twitch', twitchUser)
	await answerConsent(page, 'Allow')
	await expect(page).toHaveURL(`/${lang}/settings`)
	await expect(page.getByText(tr(lang, 'settings.method-connected', { provider: 'Twitch' }))).toBeVisible()
	// Listed with the Twitch login (the channel name), and no longer offered.
	await expect(methods.getByText(twitchUser)).toBeVisible()
	await expect(methods.getByRole('button', { name: tr(lang, 'settings.method-connect', { provider: 'Twitch' }) })).toHaveCount(0)

	// Twitch now signs in to this very account.
	await page.getByRole('button', { name: tr(lang, 'auth.sign-out') }).click()
	await expect(page.getByRole('link', { name: tr(lang, 'nav.sign-in') })).toBeVisible()
	await continueWith(page, lang, 'Twitch')
	await expectSignedInOnConfirm(page, lang)
	await expect(page.getByRole('link', { name: username })).toBeVisible()

	await page.goto(`/${lang}/settings`)
	await methods.getByRole('button', { name: tr(lang, 'settings.method-disconnect', { provider: 'Twitch' }) }).click()
	await expect(page.getByText(tr(lang, 'settings.method-disconnected', { provider: 'Twitch' }))).toBeVisible()
	await expect(methods.getByText(twitchUser)).toHaveCount(0)
	await expect(methods.getByRole('button', { name: tr(lang, 'settings.method-connect', { provider: 'Twitch' }) })).toBeVisible()
})

test('settings: an account that only has Twitch cannot disconnect it', async ({ page }) => {
	const lang = 'es'
	await continueWith(page, lang, 'Twitch')
	await signInAtProvider(page, 'Twitch', providerUsername('only'))
	await answerConsent(page, 'Allow')
	await expectSignedInOnConfirm(page, lang)
	await page.goto(`/${lang}/settings`)
	const methods = page.getByRole('region', { name: tr(lang, 'settings.methods-title') })
	await expect(methods.getByText('Twitch', { exact: true })).toBeVisible()
	await expect(methods.getByText(tr(lang, 'settings.method-only-one'))).toBeVisible()
	await expect(methods.getByRole('button', { name: tr(lang, 'settings.method-disconnect', { provider: 'Twitch' }) })).toHaveCount(0)
	// Google can still be connected.
	await expect(methods.getByRole('button', { name: tr(lang, 'settings.method-connect', { provider: 'Google' }) })).toBeVisible()
})
