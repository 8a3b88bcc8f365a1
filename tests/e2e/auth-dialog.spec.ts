import { expect, test } from './support/test'
import { clearCookiesButConsent } from './support/consent'
import { confirmedAccount } from './support/accounts'
import { tr } from './support/i18n'
import { uniqueEmail } from './support/mailbox'

test('Sign in opens the dialog with JavaScript, the page without; errors show in place, success stays on the page', async ({ page }, testInfo) => {
	const javaScript = testInfo.project.use.javaScriptEnabled !== false
	const email = uniqueEmail('dialog')
	await confirmedAccount(page, 'es', email, 'secret123')
	await clearCookiesButConsent(page.context())

	await page.goto('/es/terms')
	// The page's script in (a click before it is a plain link: the sign-in page).
	await page.waitForLoadState('networkidle')
	await page.getByRole('link', { name: tr('es', 'nav.sign-in') }).click()
	if (!javaScript) {
		await expect(page).toHaveURL('/es/login')
		return
	}
	const dialog = page.getByRole('dialog', { name: tr('es', 'pages.login.title') })
	await expect(dialog).toBeVisible()
	await expect(page).toHaveURL('/es/terms')
	await expect(dialog.getByRole('button', { name: tr('es', 'auth.continue-with-twitch') })).toBeVisible()

	// Switch to sign-up and back without leaving the page.
	await dialog.getByRole('link', { name: tr('es', 'auth.sign-up') }).click()
	await expect(page.getByRole('dialog', { name: tr('es', 'pages.register.title') })).toBeVisible()
	await page.getByRole('dialog').getByRole('link', { name: tr('es', 'auth.sign-in') }).click()

	await dialog.getByText(tr('es', 'auth.other-methods')).click()
	await dialog.getByLabel(tr('es', 'auth.email')).fill(email)
	await dialog.getByLabel(tr('es', 'auth.password'), { exact: true }).fill('wrong-password')
	await dialog.getByRole('button', { name: tr('es', 'auth.sign-in') }).click()
	await expect(dialog.getByText(tr('es', 'errors.error-invalid-credentials'))).toBeVisible()

	await dialog.getByLabel(tr('es', 'auth.password'), { exact: true }).fill('secret123')
	await dialog.getByRole('button', { name: tr('es', 'auth.sign-in') }).click()
	await expect(page.getByRole('button', { name: tr('es', 'auth.sign-out') })).toBeVisible()
	await expect(page).toHaveURL('/es/terms')
	await expect(page.getByRole('dialog', { name: tr('es', 'pages.login.title') })).toHaveCount(0)
})

test('the dialog\'s close button sits at its top right, beside the title', async ({ page }, testInfo) => {
	await page.goto('/de/terms')
	await page.getByRole('link', { name: tr('de', 'nav.sign-in') }).click()
	if (testInfo.project.use.javaScriptEnabled === false) {
		// Without JavaScript there is no dialog to close: the sign-in page opens.
		await expect(page).toHaveURL('/de/login')
		return
	}
	const dialog = page.getByRole('dialog', { name: tr('de', 'pages.login.title') })
	const [box, title, close] = await Promise.all([
		dialog.boundingBox(),
		dialog.getByRole('heading', { name: tr('de', 'pages.login.title') }).boundingBox(),
		dialog.getByRole('button', { name: tr('de', 'auth.close') }).boundingBox(),
	])
	expect(box!.x + box!.width - (close!.x + close!.width)).toBeLessThan(32)
	expect(close!.x).toBeGreaterThan(title!.x + title!.width)
	expect(close!.y).toBeLessThan(title!.y + title!.height)
	await dialog.getByRole('button', { name: tr('de', 'auth.close') }).click()
	await expect(dialog).toHaveCount(0)
})
