import { expect, test } from '@playwright/test'
import { tr } from './support/i18n'

test('the build manifest names this build and is always revalidated', async ({ request }) => {
	const response = await request.get('/builds/latest.json')
	expect(response.status()).toBe(200)
	expect(response.headers()['cache-control']).toBe('no-cache')
	const manifest = await response.json()
	expect(manifest.id).toEqual(expect.any(String))
	expect(Number.isNaN(Date.parse(manifest.time))).toBe(false)
})

test('an open tab offers a reload once a newer build is out, and not before', async ({ page }, testInfo) => {
	const manifestRequests: string[] = []
	page.on('request', (request) => {
		if (new URL(request.url()).pathname === '/builds/latest.json') manifestRequests.push(request.url())
	})
	const offer = page.getByText(tr('de', 'builds.new-version'))
	if (testInfo.project.use.javaScriptEnabled === false) {
		// Without JavaScript nothing polls: the page just works as served.
		await page.goto('/de')
		await page.waitForTimeout(1000)
		expect(manifestRequests).toEqual([])
		await expect(offer).toHaveCount(0)
		return
	}
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
