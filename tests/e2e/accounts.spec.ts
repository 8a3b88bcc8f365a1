import { expect, test } from './support/test'
import { clearCookiesButConsent } from './support/consent'
import { confirmedAccount, signIn, signUpAndConfirm } from './support/accounts'
import { inOneMode, tr } from './support/i18n'
import { DEMO_USERS } from '../../app/db/seed.server'
import { latestMailLink, uniqueEmail } from './support/mailbox'

for (const [index, lang] of (['en', 'de'] as const).entries()) {
	test.describe(`accounts (${lang})`, inOneMode(index), () => {
		test('sign up, confirm by mail, choose a username, accept the terms, sign out', async ({ page }) => {
			const email = uniqueEmail(`signup-${lang}`)
			const password = 'correct horse 1'
			await signUpAndConfirm(page, lang, email, password)

			await page.getByRole('link', { name: tr(lang, 'auth.email-confirmed-to-home') }).click()
			const dialog = page.getByRole('dialog')
			await expect(dialog.getByRole('heading', { name: tr(lang, 'account.complete-title') })).toBeVisible()
			const username = `u_${Date.now().toString(36)}${lang}`
			await dialog.getByLabel(tr(lang, 'account.username')).fill(username.toUpperCase())
			await dialog.getByRole('button', { name: tr(lang, 'account.complete-submit') }).click()

			await expect(page.getByRole('dialog').getByRole('heading', { name: tr(lang, 'account.terms-title') })).toBeVisible()
			await page.getByRole('dialog').getByRole('button', { name: tr(lang, 'account.terms-accept') }).click()
			await expect(page.getByRole('dialog')).toHaveCount(0)
			await expect(page.getByRole('link', { name: username })).toBeVisible()

			await page.getByRole('button', { name: tr(lang, 'auth.sign-out') }).click()
			await expect(page.getByText(tr(lang, 'auth.sign-out-success'))).toBeVisible()
			await expect(page.getByRole('link', { name: tr(lang, 'nav.sign-in') })).toBeVisible()

			// Signing in again: username and terms are done, no dialog.
			await signIn(page, lang, email, password)
			await expect(page.getByRole('link', { name: username })).toBeVisible()
			await expect(page.getByRole('dialog')).toHaveCount(0)
		})

		test('a wrong password is refused with a translated message, and the password is not echoed', async ({ page }) => {
			const email = uniqueEmail(`wrong-${lang}`)
			await confirmedAccount(page, lang, email, 'right password')
			await clearCookiesButConsent(page.context())
			await signIn(page, lang, email, 'wrong password')
			await expect(page.getByText(tr(lang, 'errors.error-invalid-credentials'))).toBeVisible()
			// The answer never carries the password back (hideFields), in the
			// markup or in the data for hydration.
			expect(await page.content()).not.toContain('wrong password')
		})

		test('invalid input is explained in the language of the page', async ({ page }) => {
			await page.goto(`/${lang}/register`)
			// "a@b" passes the browser's own type=email check, so with or
			// without JavaScript the schema (Conform, then the action) answers.
			await page.getByLabel(tr(lang, 'auth.email')).fill('a@b')
			await page.getByLabel(tr(lang, 'auth.password'), { exact: true }).fill('123456')
			await page.getByRole('button', { name: tr(lang, 'auth.sign-up') }).click()
			await expect(page.getByText(tr(lang, 'validation.email-invalid'))).toBeVisible()
			await expect(page.getByRole('region', { name: tr(lang, 'auth.email-confirm-title') })).toHaveCount(0)
		})

		test('password reset by mail, then sign in with the new password', async ({ page }) => {
			const email = uniqueEmail(`reset-${lang}`)
			await confirmedAccount(page, lang, email, 'old password')
			await clearCookiesButConsent(page.context())
			await page.goto(`/${lang}/password-reset`)
			await page.getByLabel(tr(lang, 'auth.email')).fill(email)
			await page.getByRole('button', { name: tr(lang, 'auth.reset-submit') }).click()
			await expect(page.getByText(tr(lang, 'auth.reset-sent'))).toBeVisible()
			const link = await latestMailLink(page.request, email, 'changePassword=true')
			await page.goto(link)
			await page.getByLabel(tr(lang, 'auth.new-password')).fill('new password 2')
			await page.getByRole('button', { name: tr(lang, 'auth.update-password') }).click()
			await expect(page.getByText(tr(lang, 'auth.password-updated'))).toBeVisible()
			await signIn(page, lang, email, 'new password 2')
			await expect(page.getByRole('dialog').getByRole('heading', { name: tr(lang, 'account.complete-title') })).toBeVisible()
		})
	})
}

test('reset answers the same for an unknown address', async ({ page }) => {
	await page.goto('/en/password-reset')
	await page.getByLabel(tr('en', 'auth.email')).fill(uniqueEmail('nobody'))
	await page.getByRole('button', { name: tr('en', 'auth.reset-submit') }).click()
	await expect(page.getByText(tr('en', 'auth.reset-sent'))).toBeVisible()
})

test('closing the username dialog unfinished explains why, keeps it open and offers deletion', async ({ page }, testInfo) => {
	await confirmedAccount(page, 'en', uniqueEmail('escape'), 'secret123')
	await page.goto('/en')
	const dialog = page.getByRole('dialog')
	await expect(dialog.getByRole('heading', { name: tr('en', 'account.complete-title') })).toBeVisible()
	if (testInfo.project.use.javaScriptEnabled !== false) {
		// Escape closes only a modal dialog: the page's script makes it one once it has loaded.
		await page.waitForFunction(() => document.querySelector('dialog.gate-dialog')?.matches(':modal'))
	}
	await page.keyboard.press('Escape')
	if (testInfo.project.use.javaScriptEnabled === false) {
		// Without JavaScript it cannot be dismissed at all; deletion is one disclosure away.
		await expect(dialog).toBeVisible()
		await dialog.getByText(tr('en', 'account.delete-account')).click()
		await expect(dialog.getByRole('button', { name: tr('en', 'account.delete-confirm') })).toBeVisible()
		return
	}
	// The dialog steps aside for a toast that says why and offers deletion...
	await expect(page.getByText(tr('en', 'account.complete-required'))).toBeVisible()
	await page.getByRole('button', { name: tr('en', 'account.delete-account') }).click()
	// ...and comes back, here with the deletion confirmation open.
	await expect(dialog.getByRole('button', { name: tr('en', 'account.delete-confirm') })).toBeVisible()
	await expect(dialog.getByRole('heading', { name: tr('en', 'account.complete-title') })).toBeVisible()
})

test('the username is checked while typing: taken, invalid, available', async ({ page }, testInfo) => {
	await confirmedAccount(page, 'de', uniqueEmail('avail'), 'secret123')
	await page.goto('/de')
	const dialog = page.getByRole('dialog')
	const input = dialog.getByRole('textbox', { name: tr('de', 'account.username') })
	if (testInfo.project.use.javaScriptEnabled === false) {
		// Without JavaScript the server answers on submit: a taken name comes back as an error.
		await input.fill(DEMO_USERS.mia.username)
		await dialog.getByRole('button', { name: tr('de', 'account.complete-submit') }).click()
		await expect(page.getByText(tr('de', 'errors.error-username-taken'))).toBeVisible()
		return
	}
	await input.fill(DEMO_USERS.mia.username.toUpperCase())
	await expect(input).toHaveValue(DEMO_USERS.mia.username)
	await expect(dialog.getByText(tr('de', 'account.username-taken'))).toBeVisible()
	await input.fill('no spaces')
	await expect(dialog.getByText(tr('de', 'validation.username-invalid'))).toBeVisible()
	await input.fill(`frei_${Date.now().toString(36)}`)
	await expect(dialog.getByText(tr('de', 'account.username-available'))).toBeVisible()
})

test('a username typed before the page has hydrated is kept, checked and saved @js-only', async ({ page }) => {
	await confirmedAccount(page, 'en', uniqueEmail('early'), 'secret123')
	// The page's scripts arrive late (a slow phone): the dialog is the server's HTML meanwhile.
	let release: () => void = () => {}
	const scriptsHeld = new Promise<void>((resolve) => (release = resolve))
	await page.route('**/assets/*.js', async (route) => {
		await scriptsHeld
		await route.continue()
	})
	await page.goto('/en', { waitUntil: 'commit' })
	const dialog = page.getByRole('dialog')
	const username = `Early_${Date.now().toString(36)}`
	await dialog.getByLabel(tr('en', 'account.username')).fill(username)
	release()
	// Hydrated: the typed name is still there (in lower case) and gets checked.
	await expect(dialog.getByText(tr('en', 'account.username-available'))).toBeVisible()
	await expect(dialog.getByLabel(tr('en', 'account.username'))).toHaveValue(username.toLowerCase())
	await dialog.getByRole('button', { name: tr('en', 'account.complete-submit') }).click()
	await expect(dialog.getByRole('button', { name: tr('en', 'account.terms-accept') })).toBeVisible()
})

test('declining the terms records nothing, says why and offers account deletion', async ({ page }, testInfo) => {
	const lang = 'tr'
	await confirmedAccount(page, lang, uniqueEmail('decline'), 'secret123')
	await page.goto(`/${lang}`)
	const dialog = page.getByRole('dialog')
	await dialog.getByLabel(tr(lang, 'account.username')).fill(`decl_${Date.now().toString(36)}`)
	await dialog.getByRole('button', { name: tr(lang, 'account.complete-submit') }).click()
	await expect(dialog.getByRole('heading', { name: tr(lang, 'account.terms-title') })).toBeVisible()
	await dialog.getByRole('button', { name: tr(lang, 'account.terms-decline') }).click()
	await expect(page.getByText(tr(lang, 'account.terms-declined'))).toBeVisible()
	if (testInfo.project.use.javaScriptEnabled === false) {
		// The server's answer: the dialog again, and the message with a link to its deletion disclosure.
		await page.getByRole('alert').getByRole('link', { name: tr(lang, 'account.delete-account') }).click()
		await expect(page).toHaveURL(/#gate-delete-account$/)
		await dialog.getByText(tr(lang, 'account.delete-account'), { exact: true }).click()
	} else {
		// The dialog steps aside for the toast; its action brings it back with the confirmation open.
		await page.getByRole('button', { name: tr(lang, 'account.delete-account') }).click()
	}
	await expect(dialog.getByRole('heading', { name: tr(lang, 'account.terms-title') })).toBeVisible()
	await expect(dialog.getByRole('button', { name: tr(lang, 'account.delete-confirm') })).toBeVisible()
	// Nothing was recorded: the terms are still asked for on the next page.
	await page.goto(`/${lang}/shop`)
	await expect(page.getByRole('dialog').getByRole('heading', { name: tr(lang, 'account.terms-title') })).toBeVisible()
})

test('attack: fetching a confirmation link (a mail scanner) uses nothing up; the page asks for one click, and a used link offers a new mail', async ({ page }) => {
	const email = uniqueEmail('prefetch')
	await page.goto('/en/register')
	await page.getByLabel(tr('en', 'auth.email')).fill(email)
	await page.getByLabel(tr('en', 'auth.password'), { exact: true }).fill('correct horse 1')
	await page.getByRole('button', { name: tr('en', 'auth.sign-up') }).click()
	await expect(page.getByRole('region', { name: tr('en', 'auth.email-confirm-title') })).toBeVisible()
	const link = await latestMailLink(page.request, email, '/confirm')
	// The scanner's GETs: no session, no confirmation.
	for (let i = 0; i < 2; i++) {
		const prefetch = await page.request.get(link, { maxRedirects: 0 })
		expect(prefetch.status()).toBe(200)
		expect(prefetch.headers()['set-cookie'] ?? '').not.toContain('session_token')
	}
	await page.goto(link)
	await page.getByRole('button', { name: tr('en', 'auth.email-confirm-button') }).click()
	await expect(page.getByRole('heading', { name: tr('en', 'auth.email-confirmed-title') })).toBeVisible()
	await expect(page.getByText(tr('en', 'auth.email-confirmed-subtitle'))).toBeVisible()

	// The same link again: refused, with the way to a new mail right there.
	await page.goto(link)
	await page.getByRole('button', { name: tr('en', 'auth.email-confirm-button') }).click()
	await expect(page.getByText(tr('en', 'errors.error-invalid-token'))).toBeVisible()
	await expect(page.getByRole('button', { name: tr('en', 'auth.email-confirm-resend') })).toBeVisible()
})

test('a demo account can be signed into with the listed password, and signing up with its address is the usual answer', async ({ page }) => {
	await page.goto('/en/register')
	await page.getByLabel(tr('en', 'auth.email')).fill(DEMO_USERS.emre.email)
	await page.getByLabel(tr('en', 'auth.password'), { exact: true }).fill('another password')
	await page.getByRole('button', { name: tr('en', 'auth.sign-up') }).click()
	await expect(page.getByRole('region', { name: tr('en', 'auth.email-confirm-title') })).toBeVisible()
	await signIn(page, 'en', DEMO_USERS.jonas.email, 'dareboost-demo')
	await expect(page.getByRole('link', { name: DEMO_USERS.jonas.username })).toBeVisible()
})
