import { expect, test } from '@playwright/test'
import { totp } from '../auth/support/totp'
import { readyAccount, signIn } from './support/accounts'
import { tr } from './support/i18n'

test('a page that needs an account sends a visitor to sign in, and back after it', async ({ page }) => {
	const { email, password } = await readyAccount(page, 'en', 'redirect')
	await page.context().clearCookies()
	await page.goto('/en/settings')
	await expect(page).toHaveURL('/en/login')
	await signIn(page, 'en', email, password)
	await expect(page).toHaveURL('/en/settings')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('en', 'pages.settings.title'))
})

for (const lang of ['en', 'tr'] as const) {
	test(`${lang}: two-factor sign-in: enrol with a code, then sign in with the next one`, async ({ page }) => {
		const { email, password, username } = await readyAccount(page, lang, `totp${lang}`)
		await page.goto(`/${lang}/settings`)
		await expect(page.getByText(tr(lang, 'settings.totp-off'))).toBeVisible()
		await page.getByLabel(tr(lang, 'settings.confirm-password')).fill(password)
		await page.getByRole('button', { name: tr(lang, 'settings.totp-enable') }).click()
		const secret = (await page.locator('code.secret').textContent())!.trim()
		expect(secret).toMatch(/^[A-Z2-7]+=*$/)
		await expect(page.locator('.recovery-codes li').first()).toBeVisible()
		await page.getByLabel(tr(lang, 'auth.totp-code')).fill(totp(secret))
		await page.getByRole('button', { name: tr(lang, 'settings.totp-confirm') }).click()
		await expect(page.getByText(tr(lang, 'settings.totp-enabled'))).toBeVisible()
		await expect(page.getByText(tr(lang, 'settings.totp-on'))).toBeVisible()

		await page.getByRole('button', { name: tr(lang, 'auth.sign-out') }).click()
		await expect(page.getByRole('link', { name: tr(lang, 'nav.sign-in') })).toBeVisible()
		await signIn(page, lang, email, password)
		// The password alone is not enough any more.
		await expect(page).toHaveURL(/step=totp/)
		await expect(page.getByRole('link', { name: username })).toHaveCount(0)
		await page.getByLabel(tr(lang, 'auth.totp-code')).fill('000000' === totp(secret) ? '111111' : '000000')
		await page.getByRole('button', { name: tr(lang, 'auth.totp-submit') }).click()
		await expect(page.getByText(tr(lang, 'errors.error-invalid-totp'))).toBeVisible()
		// An authenticator app's next code (accepted within the usual one-step window).
		await page.getByLabel(tr(lang, 'auth.totp-code')).fill(totp(secret, Date.now() + 30_000))
		await page.getByRole('button', { name: tr(lang, 'auth.totp-submit') }).click()
		await expect(page.getByRole('link', { name: username })).toBeVisible()
	})
}

test('deleting the account asks for the password, then signs out and removes the sign-in', async ({ page }) => {
	const { email, password } = await readyAccount(page, 'de', 'delete')
	await page.goto('/de/settings')
	const section = page.getByRole('region', { name: tr('de', 'account.delete-account') })
	await section.locator('summary').click()
	// A session left open is not enough: the wrong password keeps the account.
	await section.getByLabel(tr('de', 'account.delete-password')).fill('nicht mein passwort')
	await section.getByRole('button', { name: tr('de', 'account.delete-confirm') }).click()
	await expect(page.getByText(tr('de', 'errors.error-wrong-password'))).toBeVisible()
	await section.locator('summary').click()
	await section.getByLabel(tr('de', 'account.delete-password')).fill(password)
	await section.getByRole('button', { name: tr('de', 'account.delete-confirm') }).click()
	await expect(page.getByText(tr('de', 'account.deleted'))).toBeVisible()
	await expect(page.getByRole('link', { name: tr('de', 'nav.sign-in') })).toBeVisible()
	await signIn(page, 'de', email, password)
	await expect(page.getByText(tr('de', 'errors.error-invalid-credentials'))).toBeVisible()
})
