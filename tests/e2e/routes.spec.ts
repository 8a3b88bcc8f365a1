import { DEMO_SESSIONS } from '../../app/db/seed.server'
import { expect, test } from '@playwright/test'
import { documentTitle, LANGS, tr } from './support/i18n'
import { PUBLIC_PAGES } from './support/pages'

const PAGES = PUBLIC_PAGES
const live = DEMO_SESSIONS.miaLive
const ended = DEMO_SESSIONS.luciaEnded

test.describe('every route in every language', () => {
	for (const lang of LANGS) {
		test(`${lang}: each page answers 200 with its translated title`, async ({ request }) => {
			for (const page of PAGES) {
				const response = await request.get(`/${lang}${page.path}`)
				expect(response.status(), `/${lang}${page.path}`).toBe(200)
				const html = await response.text()
				const expected =
					typeof page.title === 'string'
						? documentTitle(lang, page.title)
						: `${page.title(lang)} · ${tr(lang, 'app.name')}`
				expect(html, `/${lang}${page.path}`).toContain(`<title>${escapeHtml(expected)}</title>`)
				expect(html).toContain(`<html lang="${lang}"`)
			}
		})
	}

	test('the page renders inside the layout, in the page language', async ({ page }) => {
		await page.goto('/de/terms')
		await expect(page).toHaveTitle(documentTitle('de', 'pages.terms.title'))
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('de', 'pages.terms.title'))
		await expect(page.getByRole('navigation', { name: tr('de', 'footer.legal') })).toBeVisible()
	})

	test('a channel that is no longer live shows its last session with a notice', async ({ page }) => {
		await page.goto(`/es/${ended.platform}/${ended.channel}`)
		await expect(page.getByRole('status').filter({ hasText: tr('es', 'sessions.not-live') })).toBeVisible()
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(ended.title)
	})

	test('home lists the live demo sessions, most active first with their totals, and searches by channel', async ({ page }) => {
		await page.goto('/en')
		await expect(page.getByRole('link', { name: live.title })).toBeVisible()
		// The demo's busiest session (six dares, the most coins in play) comes first.
		const first = page.locator('.session-card').first()
		await expect(first.getByRole('link')).toHaveText(live.title)
		await expect(first).toContainText(/Dares: 6 · ◎ \d+ in play/)
		await page.getByRole('searchbox', { name: tr('en', 'home.search-label') }).fill('no-such-channel-xyz')
		await page.getByRole('button', { name: tr('en', 'home.search-submit') }).click()
		await expect(page.getByText(tr('en', 'home.no-results', { query: 'no-such-channel-xyz' }))).toBeVisible()
		await page.getByRole('searchbox', { name: tr('en', 'home.search-label') }).fill(live.channel.slice(0, 4))
		await page.getByRole('button', { name: tr('en', 'home.search-submit') }).click()
		await page.getByRole('link', { name: live.title }).click()
		await expect(page).toHaveURL(`/en/${live.platform}/${live.channel}`)
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(live.title)
	})

	test('the shop ignores a returnPath that leaves the site', async ({ request }) => {
		const hrefs = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]!)
		for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
			const html = await (await request.get(`/en/shop?returnPath=${encodeURIComponent(evil)}`)).text()
			// every link stays on this site (the language links carry the query, encoded)
			for (const href of hrefs(html)) {
				expect(href, evil).toMatch(/^(#|\/(?![/\\]))/)
				expect(decodeURIComponent(href.split('?')[0]!), evil).not.toContain('evil.example')
			}
			expect(html).not.toContain(tr('en', 'shop.back'))
		}
		const html = await (await request.get('/en/shop?returnPath=%2Fen%2Fsession%2Fabc%3Fx%3D1')).text()
		expect(hrefs(html)).toContain('/en/session/abc?x=1')
		expect(html).toContain(tr('en', 'shop.back'))
	})

	test('translations are served per locale and cached for a day', async ({ request }) => {
		for (const lang of LANGS) {
			const response = await request.get(`/_i18n/${lang}/messages.json`)
			expect(response.status()).toBe(200)
			expect(response.headers()['cache-control']).toBe('public, max-age=86400')
			const body = (await response.json()) as { app: { name: string }; nav: { shop: string } }
			expect(body.nav.shop).toBe(tr(lang, 'nav.shop'))
		}
		expect((await request.get('/_i18n/xx/messages.json')).status()).toBe(404)
	})
})

function escapeHtml(s: string) {
	return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}
