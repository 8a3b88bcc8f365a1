import { expect, test } from './support/test'
import { tr } from './support/i18n'

/**
 * An open tab's check for a newer deploy (docs/decisions/021). The manifest
 * itself, and that it is always revalidated, is tested over HTTP
 * (tests/http/builds.test.ts).
 */
test('an open tab offers a reload once a newer build is out, and not before', async ({ page }) => {
	const manifestRequests: string[] = []
	page.on('request', (request) => {
		if (new URL(request.url()).pathname === '/builds/latest.json') manifestRequests.push(request.url())
	})
	const offer = page.getByText(tr('de', 'builds.new-version'))
	await page.clock.install()
	let newer = false
	// why: a real second deploy cannot happen inside one test run; the manifest alone stands in for it.
	await page.route('**/builds/latest.json', async (route) => {
		if (!newer) return route.continue()
		await route.fulfill({ json: { id: 'a-newer-build', time: new Date().toISOString() }, headers: { 'cache-control': 'no-cache' } })
	})
	await page.goto('/de')
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
	// The same build: checks come and go without an offer.
	await expect
		.poll(async () => {
			await page.clock.fastForward('05:01')
			return manifestRequests.length
		})
		.toBeGreaterThan(0)
	await expect(offer).toHaveCount(0)
	// A newer build: the next check offers a reload.
	newer = true
	await expect
		.poll(async () => {
			await page.clock.fastForward('05:01')
			return offer.isVisible()
		})
		.toBe(true)
	await expect(page.getByText(tr('de', 'builds.new-version-description'))).toBeVisible()
	const reloaded = page.waitForEvent('load')
	await page.getByRole('button', { name: tr('de', 'builds.reload') }).click()
	await reloaded
	await expect(page).toHaveURL('/de')
})
