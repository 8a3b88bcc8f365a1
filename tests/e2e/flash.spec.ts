import { expect, test, type Page } from './support/test'
import { confirmedAccount } from './support/accounts'
import { inOneMode, tr } from './support/i18n'
import { uniqueEmail } from './support/mailbox'

/** The toast as either renders it: sonner's with JavaScript, the server's flash box without. */
function toast(page: Page, javaScript: boolean) {
	return javaScript ? page.locator('[data-sonner-toast]') : page.locator('.flash')
}

async function signUp(page: Page, lang: 'en' | 'de', email: string) {
	await page.goto(`/${lang}/register`)
	await page.getByLabel(tr(lang, 'auth.email')).fill(email)
	await page.getByLabel(tr(lang, 'auth.password'), { exact: true }).fill('secret123')
	await page.getByRole('button', { name: tr(lang, 'auth.sign-up') }).click()
	await expect(page.getByRole('region', { name: tr(lang, 'auth.email-confirm-title') })).toBeVisible()
}

for (const [index, lang] of (['en', 'de'] as const).entries()) {
	test(`${lang}: the sign-up toast shows on the page that answers the sign-up, and not again on the next page`, inOneMode(index), async ({ page }, testInfo) => {
		const javaScript = testInfo.project.use.javaScriptEnabled !== false
		await signUp(page, lang, uniqueEmail(`flash-${lang}`))
		await expect(toast(page, javaScript).filter({ hasText: tr(lang, 'auth.sign-up-success') })).toBeVisible()
		await expect(toast(page, javaScript)).toContainText(tr(lang, 'auth.sign-up-success-description'))

		await page.goto(`/${lang}/terms`)
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(lang, 'pages.terms.title'))
		await expect(page.getByText(tr(lang, 'auth.sign-up-success'))).toHaveCount(0)
	})
}

test('a refused early resend shows its own answer, not the sign-up toast again', async ({ page }, testInfo) => {
	const javaScript = testInfo.project.use.javaScriptEnabled !== false
	const email = uniqueEmail('flash-early')
	await signUp(page, 'en', email)
	// The sign-up's toast has been shown (and, with JavaScript, the page's data
	// reloaded, which clears it) before the next request.
	await expect(toast(page, javaScript).filter({ hasText: tr('en', 'auth.sign-up-success') })).toBeVisible()
	await page.waitForLoadState('networkidle')
	// Refused by the server (the button is not offered yet), as a no-JavaScript browser would post it.
	const early = await page.request.post('/en/register', { form: { intent: 'resend', email } })
	expect(early.status()).toBe(429)
	const html = await early.text()
	expect(html).toContain(tr('en', 'auth.email-confirm-resend-too-early'))
	expect(html).not.toContain(tr('en', 'auth.sign-up-success'))
	expect(html).not.toContain(tr('en', 'auth.email-confirm-resend-success', { email }))
	// ...and nothing is left behind for the next page either.
	await page.goto('/en/terms')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('en', 'pages.terms.title'))
	await expect(toast(page, javaScript)).toHaveCount(0)
})

test('after the cooldown, resending shows the toast naming the address on the same page', async ({ page }, testInfo) => {
	// why: the server's 60-second cooldown is real time, so this test waits it out.
	test.setTimeout(150_000)
	const javaScript = testInfo.project.use.javaScriptEnabled !== false
	const email = uniqueEmail('flash-resend')
	await signUp(page, 'en', email)
	const panel = page.getByRole('region', { name: tr('en', 'auth.email-confirm-title') })
	const resend = panel.getByRole('button', { name: tr('en', 'auth.email-confirm-resend') })
	await expect(resend).toBeVisible({ timeout: 75_000 })
	await resend.click()
	const sent = tr('en', 'auth.email-confirm-resend-success', { email })
	await expect(toast(page, javaScript).filter({ hasText: sent })).toBeVisible()
	await expect(page.getByText(tr('en', 'auth.sign-up-success'))).toHaveCount(0)
})

test('without JavaScript the flash sits above the content and closes; with it, sonner shows it', async ({ page }, testInfo) => {
	const javaScript = testInfo.project.use.javaScriptEnabled !== false
	await signUp(page, 'en', uniqueEmail('flash-close'))
	const box = toast(page, javaScript).filter({ hasText: tr('en', 'auth.sign-up-success') })
	await expect(box).toBeVisible()
	if (javaScript) {
		await expect(page.locator('.flash')).toHaveCount(0)
		return
	}
	// In the page's flow between the header and the page, so it covers neither.
	const flash = (await box.boundingBox())!
	const header = (await page.locator('.site-header').boundingBox())!
	const heading = (await page.getByRole('heading', { level: 1 }).boundingBox())!
	expect(flash.y).toBeGreaterThanOrEqual(header.y + header.height)
	expect(flash.y + flash.height).toBeLessThanOrEqual(heading.y)
	await box.getByTitle(tr('en', 'auth.close')).click()
	await expect(box).toBeHidden()
	await expect(page.getByRole('checkbox', { name: tr('en', 'auth.close') })).toBeChecked()
})

test('a toast that answers an open account dialog is on top of it and can be closed', async ({ page }, testInfo) => {
	const javaScript = testInfo.project.use.javaScriptEnabled !== false
	await confirmedAccount(page, 'de', uniqueEmail('flash-gate'), 'secret123')
	await page.goto('/de')
	const dialog = page.getByRole('dialog')
	await dialog.getByLabel(tr('de', 'account.username')).fill('x'.repeat(31))
	const message = tr('de', 'validation.username-too-long')
	if (javaScript) await expect(dialog.locator('#username-status')).toHaveText(message)
	await dialog.getByRole('button', { name: tr('de', 'account.complete-submit') }).click()
	if (javaScript) {
		// The dialog stays modal; the toast is inside it, so neither dimmed nor inert.
		const shown = page.locator('[data-sonner-toast]').filter({ hasText: message })
		await expect(shown).toBeVisible()
		await expect(dialog.locator('[data-sonner-toast]')).toHaveCount(1)
		await shown.hover()
		await shown.getByRole('button', { name: tr('de', 'auth.close') }).click()
		await expect(shown).toHaveCount(0)
		await expect(dialog).toBeVisible()
		return
	}
	const flash = page.locator('.flash').filter({ hasText: message })
	await expect(flash).toBeVisible()
	// Above the dialog's dimmed backdrop (a shadow, which hit-testing does not see, so the stacking is compared).
	const layer = (el: Element) => Number(getComputedStyle(el).zIndex)
	expect(await page.locator('.flash-slot').evaluate(layer)).toBeGreaterThan(await dialog.evaluate(layer))
	await flash.getByTitle(tr('de', 'auth.close')).click()
	await expect(flash).toBeHidden()
})
