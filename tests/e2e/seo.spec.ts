import { expect, test } from '@playwright/test'
import { DEMO_SESSIONS } from '../../app/db/seed.server'
import { LANGS, tr } from './support/i18n'

const live = DEMO_SESSIONS.miaLive

test.describe('metadata for search and sharing', () => {
	for (const path of ['/en/terms', '/de/privacy', '/tr/shop']) {
		test(`${path}: canonical URL, the four languages and x-default`, async ({ page, baseURL }) => {
			await page.goto(`${path}?returnPath=%2Fen&utm_source=x`)
			const h = page.locator('head')
			// The canonical URL drops the query.
			await expect(h.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}${path}`)
			const rest = path.slice(3)
			for (const other of LANGS) {
				await expect(h.locator(`link[rel="alternate"][hreflang="${other}"]`)).toHaveAttribute('href', `${baseURL}/${other}${rest}`)
			}
			await expect(h.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute('href', `${baseURL}/en${rest}`)
			await expect(h.locator('link[rel="alternate"]')).toHaveCount(5)
			await expect(h.locator('link[rel="canonical"]')).toHaveCount(1)
		})
	}

	test('home: x-default is the language-picking root, and the page has one description in its language', async ({ page, baseURL }) => {
		await page.goto('/es')
		const h = page.locator('head')
		await expect(h.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute('href', `${baseURL}/`)
		await expect(h.locator('meta[name="description"]')).toHaveCount(1)
		await expect(h.locator('meta[name="description"]')).toHaveAttribute('content', tr('es', 'app.description'))
	})

	test('a legal page has its own title and description, and a share card with the site image', async ({ page, baseURL }) => {
		await page.goto('/de/terms')
		const h = page.locator('head')
		await expect(h.locator('meta[name="description"]')).toHaveAttribute('content', tr('de', 'pages.terms.lead'))
		await expect(h.locator('meta[property="og:title"]')).toHaveAttribute('content', tr('de', 'pages.terms.title'))
		await expect(h.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'de_DE')
		await expect(h.locator('meta[property="og:url"]')).toHaveAttribute('content', `${baseURL}/de/terms`)
		await expect(h.locator('meta[property="og:image"]')).toHaveAttribute('content', `${baseURL}/og-image.png`)
		await expect(h.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image')
		await expect(h.locator('meta[name="twitter:image:alt"]')).toHaveAttribute('content', tr('de', 'app.share-image-alt'))
	})

	test("a live session's card names the creator and the title, with its own generated image in the page's language", async ({ page, request, baseURL }) => {
		await page.goto(`/tr/${live.platform}/${live.channel}`)
		const h = page.locator('head')
		const vars = { creator: live.creator, platform: 'Twitch' }
		await expect(h.locator('meta[property="og:title"]')).toHaveAttribute('content', live.title)
		await expect(h.locator('meta[property="og:description"]')).toHaveAttribute('content', tr('tr', 'sessions.share-description', vars))
		await expect(h.locator('meta[property="og:type"]')).toHaveAttribute('content', 'video.other')
		const image = `${baseURL}/tr/session/${live.id}/card.png`
		await expect(h.locator('meta[property="og:image"]')).toHaveAttribute('content', image)
		await expect(h.locator('meta[name="twitter:image"]')).toHaveAttribute('content', image)
		await expect(h.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', tr('tr', 'sessions.share-image-alt', { ...vars, title: live.title }))
		const card = await request.get(image)
		expect(card.status()).toBe(200)
		expect(card.headers()['content-type']).toBe('image/png')
		const png = await card.body()
		// The PNG header's width and height: Open Graph's large image.
		expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630])
		expect((await request.get(`${baseURL}/tr/session/00000000-0000-4000-8000-000000000000/card.png`)).status()).toBe(404)
	})

	test('after a client-side navigation the head describes the new page only', async ({ page, baseURL }) => {
		await page.goto('/en/terms')
		await page.getByRole('contentinfo').getByRole('link', { name: tr('en', 'footer.privacy') }).click()
		await expect(page).toHaveURL('/en/privacy')
		const h = page.locator('head')
		await expect(h.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/en/privacy`)
		await expect(h.locator('link[rel="canonical"]')).toHaveCount(1)
		await expect(h.locator('meta[name="description"]')).toHaveCount(1)
		await expect(h.locator('link[rel="alternate"][hreflang="de"]')).toHaveAttribute('href', `${baseURL}/de/privacy`)
		await expect(h.locator('link[rel="alternate"]')).toHaveCount(5)
	})

	test('error pages are not indexed and name no canonical URL', async ({ page }) => {
		const response = await page.goto('/en/no-such-page')
		expect(response?.status()).toBe(404)
		const h = page.locator('head')
		await expect(h.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
		await expect(h.locator('link[rel="canonical"]')).toHaveCount(0)
	})

	test('the icons, the share image and the web app manifest are served', async ({ request, page }) => {
		await page.goto('/en')
		const h = page.locator('head')
		await expect(h.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest')
		await expect(h.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/apple-touch-icon.png')
		const manifest = await request.get('/manifest.webmanifest')
		expect(manifest.headers()['content-type']).toContain('application/manifest+json')
		const body = await manifest.json()
		expect(body.name).toBe('Dareboost')
		for (const icon of body.icons as Array<{ src: string; type: string }>) {
			const file = await request.get(icon.src)
			expect(file.status(), icon.src).toBe(200)
			expect(file.headers()['content-type'], icon.src).toContain(icon.type)
		}
		for (const path of ['/favicon.ico', '/favicon.svg', '/apple-touch-icon.png', '/og-image.png']) {
			expect((await request.get(path)).status(), path).toBe(200)
		}
	})
})

test.describe('robots.txt and the sitemap', () => {
	test('robots.txt keeps crawlers out of the API, development tools, settings and overlays and names the sitemap', async ({ request, baseURL }) => {
		const response = await request.get('/robots.txt')
		expect(response.headers()['content-type']).toContain('text/plain')
		const text = await response.text()
		for (const path of ['/api/', '/dev/', '/en/settings', '/de/settings', '/tr/overlay/', '/es/overlay/']) {
			expect(text).toContain(`Disallow: ${path}`)
		}
		expect(text).not.toMatch(/^Disallow: \/$/m)
		expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`)
	})

	test('the sitemap lists the public pages in four languages with their alternates, and nothing private', async ({ request, baseURL }) => {
		const response = await request.get('/sitemap.xml')
		expect(response.headers()['content-type']).toContain('application/xml')
		const xml = await response.text()
		const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
		const expected = LANGS.flatMap((lang) =>
			['', '/shop', '/terms', '/privacy', '/imprint', '/creator-agreement'].map((path) => `${baseURL}/${lang}${path}`),
		)
		expect(locs.sort()).toEqual(expected.sort())
		expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${baseURL}/"/>`)
		expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="tr" href="${baseURL}/tr/imprint"/>`)
		for (const secret of ['/settings', '/overlay', '/api/', '/dev/', `/session/${live.id}`]) expect(xml).not.toContain(secret)
	})
})
