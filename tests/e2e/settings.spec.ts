import { expect, test } from './support/test'
import { clearCookiesButConsent } from './support/consent'
import { totp } from '../auth/support/totp'
import { readyAccount, signIn } from './support/accounts'
import { inOneMode, tr } from './support/i18n'

test('a page that needs an account sends a visitor to sign in, and back after it', async ({ page }) => {
	const { email, password } = await readyAccount(page, 'en', 'redirect')
	await clearCookiesButConsent(page.context())
	await page.goto('/en/settings')
	await expect(page).toHaveURL('/en/login')
	await signIn(page, 'en', email, password)
	await expect(page).toHaveURL('/en/settings')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('en', 'pages.settings.title'))
})

for (const [index, lang] of (['en', 'tr'] as const).entries()) {
	test(`${lang}: two-factor sign-in: enrol with a code, then sign in with the next one`, inOneMode(index), async ({ page }) => {
		const { email, password, username } = await readyAccount(page, lang, `totp${lang}`)
		await page.goto(`/${lang}/settings`)
		await expect(page.getByText(tr(lang, 'settings.totp-off'))).toBeVisible()
		await page.getByLabel(tr(lang, 'settings.confirm-password')).fill(password)
		await page.getByRole('button', { name: tr(lang, 'settings.totp-enable') }).click()
		const secret = (await page.locator('code.secret').textContent())!.trim()
		expect(secret).toMatch(/^[A-Z2-7]+=*$/)
		await expect(page.locator('.recovery-codes li').first()).toBeVisible()
		await page.getByLabel(tr(lang, 'auth.totp-code'), { exact: true }).fill(totp(secret))
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

test('deleting the account says how many coins are forfeited, asks for the password, then signs out and removes the sign-in', async ({ page }) => {
	const { email, password } = await readyAccount(page, 'de', 'delete')
	await page.goto('/de/shop')
	await page.getByRole('button', { name: tr('de', 'shop.buy', { price: '4,99 €' }) }).click()
	await expect(page.getByTestId('wallet-balance')).toHaveText(/^◎\s*500$/)
	await page.goto('/de/settings')
	const section = page.getByRole('region', { name: tr('de', 'settings.danger-title') })
	await section.locator('summary').click()
	await expect(section.getByRole('note')).toHaveText(tr('de', 'account.delete-forfeit', { coins: '500' }))
	// A session left open is not enough: the wrong password keeps the account.
	await section.getByLabel(tr('de', 'account.delete-password')).fill('nicht mein passwort')
	await section.getByRole('button', { name: tr('de', 'account.delete-confirm') }).click()
	await expect(page.getByText(tr('de', 'errors.error-wrong-password'))).toBeVisible()
	// With JavaScript the confirmation stays open for the next try; without, the page comes back with it closed.
	if ((await section.locator('details').getAttribute('open')) === null) await section.locator('summary').click()
	await section.getByLabel(tr('de', 'account.delete-password')).fill(password)
	await section.getByRole('button', { name: tr('de', 'account.delete-confirm') }).click()
	await expect(page.getByText(tr('de', 'account.deleted'))).toBeVisible()
	await expect(page.getByRole('link', { name: tr('de', 'nav.sign-in') })).toBeVisible()
	await signIn(page, 'de', email, password)
	await expect(page.getByText(tr('de', 'errors.error-invalid-credentials'))).toBeVisible()
})

test('the username form answers a bad name with its field error and a 400, and saves a good one', async ({ page }, testInfo) => {
	const javaScript = testInfo.project.use.javaScriptEnabled !== false
	await readyAccount(page, 'en', 'rename')
	await page.goto('/en/settings')
	const section = page.getByRole('region', { name: tr('en', 'settings.profile') })
	const input = section.getByRole('textbox', { name: tr('en', 'account.username') })
	const save = section.getByRole('button', { name: tr('en', 'settings.save') })

	await input.fill('a'.repeat(31))
	const answer = javaScript ? null : page.waitForResponse((r) => r.request().method() === 'POST')
	await save.click()
	if (answer) expect((await answer).status()).toBe(400)
	await expect(section.getByText(tr('en', 'validation.username-too-long'))).toBeVisible()
	await expect(input).toHaveAttribute('aria-invalid', 'true')

	await input.fill('no spaces')
	await save.click()
	await expect(section.getByText(tr('en', 'validation.username-invalid'))).toBeVisible()

	// The server says the same to a client that skips the browser's checks.
	const raw = await page.request.post('/en/settings', { form: { intent: 'username', username: 'b'.repeat(31) } })
	expect(raw.status()).toBe(400)
	expect(await raw.text()).toContain(tr('en', 'validation.username-too-long'))

	const name = `renamed_${Date.now().toString(36)}`
	await input.fill(name)
	await save.click()
	await expect(page.getByText(tr('en', 'settings.username-saved', { username: name }))).toBeVisible()
	await expect(page.getByRole('link', { name })).toBeVisible()
})

test('setting up two-factor: a wrong password is called a wrong password; the setup shows a QR code and the key, not "Off."', async ({ page }) => {
	const { password } = await readyAccount(page, 'de', 'totpqr')
	await page.goto('/de/settings')
	const section = page.getByRole('region', { name: tr('de', 'settings.totp-title') })
	await section.getByLabel(tr('de', 'settings.confirm-password')).fill('not-the-password')
	await section.getByRole('button', { name: tr('de', 'settings.totp-enable') }).click()
	await expect(section.getByText(tr('de', 'errors.error-wrong-password'))).toBeVisible()
	await expect(page.getByText(tr('de', 'errors.error-invalid-credentials'))).toHaveCount(0)

	await section.getByLabel(tr('de', 'settings.confirm-password')).fill(password)
	await section.getByRole('button', { name: tr('de', 'settings.totp-enable') }).click()
	const qr = section.getByRole('img', { name: tr('de', 'settings.totp-qr') })
	await expect(qr).toBeVisible()
	// Drawn on the server as an inline SVG: a square grid with modules in it.
	const [viewBox, path] = await Promise.all([qr.getAttribute('viewBox'), qr.locator('path').getAttribute('d')])
	expect(viewBox).toMatch(/^0 0 (\d+) \1$/)
	expect(path?.length).toBeGreaterThan(500)
	const secret = (await section.locator('code.secret').textContent())!.trim()
	expect(secret).toMatch(/^[A-Z2-7]+=*$/)
	const link = await section.getByRole('link', { name: tr('de', 'settings.totp-open-app') }).first().getAttribute('href')
	expect(link).toMatch(/^otpauth:\/\/totp\//)
	expect(link).toContain(`secret=${secret}`)
	await expect(section.getByText(tr('de', 'settings.totp-off'))).toHaveCount(0)
	const box = (await qr.boundingBox())!
	expect(box.width).toBeGreaterThan(150)
})

test('settings: the current language is marked, buttons are as wide as their words, the delete toggle has its own heading', async ({ page }) => {
	await readyAccount(page, 'tr', 'layout')
	await page.setViewportSize({ width: 1440, height: 900 })
	await page.goto('/tr/settings')
	const languages = page.getByRole('region', { name: tr('tr', 'nav.language') })
	await expect(languages.getByRole('link', { name: 'Türkçe' })).toHaveAttribute('aria-current', 'true')
	await expect(languages.locator('[aria-current]')).toHaveCount(1)
	for (const button of await page.locator('.settings button').all()) {
		if (!(await button.isVisible())) continue
		expect((await button.boundingBox())!.width).toBeLessThan(480)
	}
	const danger = page.getByRole('region', { name: tr('tr', 'settings.danger-title') })
	await expect(danger.getByRole('heading', { level: 2 })).not.toHaveText(tr('tr', 'account.delete-account'))
	await expect(danger.getByText(tr('tr', 'account.delete-account'))).toBeVisible()
})
