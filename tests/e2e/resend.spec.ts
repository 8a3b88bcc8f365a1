import { expect, test } from './support/test'
import { inOneMode, tr } from './support/i18n'
import { uniqueEmail } from './support/mailbox'

/** The no-JavaScript "from hh:mm:ss UTC (in n seconds)" line; `seconds` is a regular expression (group 2). */
function fromPattern(lang: 'en' | 'es', seconds: string) {
	const escaped = tr(lang, 'auth.email-confirm-resend-from').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
	return new RegExp(escaped.replace('\\{\\{time\\}\\}', '(.+ UTC)').replace('\\{\\{seconds\\}\\}', `(${seconds})`))
}

for (const [index, lang] of (['en', 'es'] as const).entries()) {
	test(`${lang}: the resend button waits out a 60-second countdown, and the server enforces it too`, inOneMode(index), async ({ page }, testInfo) => {
		const javaScript = testInfo.project.use.javaScriptEnabled !== false
		if (javaScript) await page.clock.install()
		const email = uniqueEmail(`resend-${lang}`)
		await page.goto(`/${lang}/register`)
		await page.getByLabel(tr(lang, 'auth.email')).fill(email)
		await page.getByLabel(tr(lang, 'auth.password'), { exact: true }).fill('secret123')
		await page.getByRole('button', { name: tr(lang, 'auth.sign-up') }).click()

		const panel = page.getByRole('region', { name: tr(lang, 'auth.email-confirm-title') })
		await expect(panel.getByText(email)).toBeVisible()
		const resend = panel.getByRole('button', { name: tr(lang, 'auth.email-confirm-resend') })
		const timer = panel.getByRole('timer')
		const pattern = new RegExp(tr(lang, 'auth.email-confirm-resend-not-available', { seconds: '(\\d+)' }).replace(/[.?]/g, '\\$&'))
		if (javaScript) {
			// Counting down from 60 (a busy machine may have let a few seconds pass).
			await expect(timer).toHaveText(pattern)
			expect(Number(pattern.exec((await timer.textContent()) ?? '')?.[1])).toBeGreaterThan(40)
		} else {
			// Nothing ticks without JavaScript: the panel says from what time resending works.
			const from = panel.locator('time')
			await expect(from).toHaveText(fromPattern(lang, '60'))
			const at = Date.parse((await from.getAttribute('datetime'))!)
			expect(at - Date.now()).toBeGreaterThan(45_000)
			expect(at - Date.now()).toBeLessThan(65_000)
		}
		await expect(resend).toBeHidden()

		// Asking early anyway is refused by the server, with the seconds left, and the page says so.
		const early = await page.request.post(`/${lang}/register`, { form: { intent: 'resend', email } })
		expect(early.status()).toBe(429)
		const html = await early.text()
		expect(html).toContain(tr(lang, 'auth.email-confirm-resend-too-early'))
		const refusedFor = Number(fromPattern(lang, '\\d+').exec(html)?.[2])
		expect(refusedFor).toBeGreaterThan(0)
		expect(refusedFor).toBeLessThanOrEqual(60)

		if (!javaScript) return // the CSS delay cannot be fast-forwarded; the server's refusal is what counts
		// The countdown ticks each second (the fake clock also runs in real time).
		await page.clock.fastForward(1_000)
		await expect(timer).toHaveText(pattern)
		const left = Number(pattern.exec((await timer.textContent()) ?? '')?.[1])
		expect(left).toBeLessThan(60)
		expect(left).toBeGreaterThan(0)
		await page.clock.fastForward(60_000)
		await expect(resend).toBeVisible()
	})
}
