import { expect, test } from '@playwright/test'
import { tr } from './support/i18n'
import { uniqueEmail } from './support/mailbox'

for (const lang of ['en', 'es'] as const) {
	test(`${lang}: the resend button waits out a 60-second countdown, and the server enforces it too`, async ({ page }, testInfo) => {
		const javaScript = testInfo.project.use.javaScriptEnabled !== false
		if (javaScript) await page.clock.install()
		const email = uniqueEmail(`resend-${lang}`)
		await page.goto(`/${lang}/register`)
		await page.getByLabel(tr(lang, 'auth.email')).fill(email)
		await page.getByLabel(tr(lang, 'auth.password'), { exact: true }).fill('secret123')
		await page.getByRole('button', { name: tr(lang, 'auth.sign-up') }).click()

		const panel = page.getByRole('region', { name: tr(lang, 'auth.email-confirm-title') })
		await expect(panel.getByText(email)).toBeVisible()
		await expect(panel.getByText(tr(lang, 'auth.email-confirm-resend-not-available', { seconds: 60 }))).toBeVisible()
		const resend = panel.getByRole('button', { name: tr(lang, 'auth.email-confirm-resend') })
		await expect(resend).toBeHidden()

		// Asking early anyway is refused by the server, with the seconds left.
		const early = await page.request.post(`/${lang}/register`, { form: { intent: 'resend', email } })
		expect(early.status()).toBe(429)

		if (!javaScript) return // the CSS delay cannot be fast-forwarded; the server's refusal is what counts
		// The countdown ticks each second (the fake clock also runs in real time).
		await page.clock.fastForward(1_000)
		const timer = panel.getByRole('timer')
		const pattern = new RegExp(tr(lang, 'auth.email-confirm-resend-not-available', { seconds: '(\\d+)' }).replace(/[.?]/g, '\\$&'))
		await expect(timer).toHaveText(pattern)
		const left = Number(pattern.exec((await timer.textContent()) ?? '')?.[1])
		expect(left).toBeLessThan(60)
		expect(left).toBeGreaterThan(0)
		await page.clock.fastForward(60_000)
		await expect(resend).toBeVisible()
	})
}
