import { expect, test } from 'vitest'
import { DEMO_SESSIONS } from '#app/db/seed.server'
import { LANGS, tr } from '#tests/e2e/support/i18n'
import { describeEachServer, Visitor } from './support'

/** What search engines and link previews read: the head, robots.txt, the sitemap, the icons and share images (app/modules/seo). */
const live = DEMO_SESSIONS.miaLive

describeEachServer('metadata for search and sharing', (server) => {
	const base = server.url

	test('canonical URL without the query, the four languages and x-default', async () => {
		for (const path of ['/en/terms', '/de/privacy', '/tr/shop']) {
			const page = await new Visitor(server).page(`${path}?returnPath=%2Fen&utm_source=x`)
			expect(page.headAttribute('link[rel="canonical"]', 'href'), path).toBe(`${base}${path}`)
			const rest = path.slice(3)
			for (const other of LANGS) expect(page.headAttribute(`link[rel="alternate"][hreflang="${other}"]`, 'href'), path).toBe(`${base}/${other}${rest}`)
			expect(page.headAttribute('link[rel="alternate"][hreflang="x-default"]', 'href'), path).toBe(`${base}/en${rest}`)
			expect(page.head.querySelectorAll('link[rel="alternate"]'), path).toHaveLength(5)
		}
	})

	test('home: x-default is the language-picking root, and the page has one description in its language', async () => {
		const page = await new Visitor(server).page('/es')
		expect(page.headAttribute('link[rel="alternate"][hreflang="x-default"]', 'href')).toBe(`${base}/`)
		expect(page.headAttribute('meta[name="description"]', 'content')).toBe(tr('es', 'app.description'))
	})

	test('a legal page has its own title and description, and a share card with the site image', async () => {
		const page = await new Visitor(server).page('/de/terms')
		expect(page.headAttribute('meta[name="description"]', 'content')).toBe(tr('de', 'pages.terms.lead'))
		expect(page.headAttribute('meta[property="og:title"]', 'content')).toBe(tr('de', 'pages.terms.title'))
		expect(page.headAttribute('meta[property="og:locale"]', 'content')).toBe('de_DE')
		expect(page.headAttribute('meta[property="og:url"]', 'content')).toBe(`${base}/de/terms`)
		expect(page.headAttribute('meta[property="og:image"]', 'content')).toBe(`${base}/og-image.png`)
		expect(page.headAttribute('meta[name="twitter:card"]', 'content')).toBe('summary_large_image')
		expect(page.headAttribute('meta[name="twitter:image:alt"]', 'content')).toBe(tr('de', 'app.share-image-alt'))
	})

	test("a live session's card names the creator and the title, with its own generated image in the page's language", async () => {
		const visitor = new Visitor(server)
		const page = await visitor.page(`/tr/${live.platform}/${live.channel}`)
		const vars = { creator: live.creator, platform: 'Twitch' }
		expect(page.headAttribute('meta[property="og:title"]', 'content')).toBe(live.title)
		expect(page.headAttribute('meta[property="og:description"]', 'content')).toBe(tr('tr', 'sessions.share-description', vars))
		expect(page.headAttribute('meta[property="og:type"]', 'content')).toBe('video.other')
		const image = `${base}/tr/session/${live.id}/card.png`
		expect(page.headAttribute('meta[property="og:image"]', 'content')).toBe(image)
		expect(page.headAttribute('meta[name="twitter:image"]', 'content')).toBe(image)
		expect(page.headAttribute('meta[property="og:image:alt"]', 'content')).toBe(tr('tr', 'sessions.share-image-alt', { ...vars, title: live.title }))
		const card = await visitor.fetch(image)
		expect(card.status).toBe(200)
		expect(card.headers.get('content-type')).toBe('image/png')
		const png = Buffer.from(await card.arrayBuffer())
		// The PNG header's width and height: Open Graph's large image.
		expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630])
		const missing = await visitor.fetch('/tr/session/00000000-0000-4000-8000-000000000000/card.png')
		expect(missing.status).toBe(404)
	})

	test('error pages are not indexed and name no canonical URL', async () => {
		const page = await new Visitor(server).page('/en/no-such-page')
		expect(page.status).toBe(404)
		expect(page.headAttribute('meta[name="robots"]', 'content')).toBe('noindex')
		expect(page.head.querySelectorAll('link[rel="canonical"]')).toHaveLength(0)
	})

	test('the icons, the share image and the web app manifest are served', async () => {
		const visitor = new Visitor(server)
		const page = await visitor.page('/en')
		expect(page.headAttribute('link[rel="manifest"]', 'href')).toBe('/manifest.webmanifest')
		expect(page.headAttribute('link[rel="apple-touch-icon"]', 'href')).toBe('/apple-touch-icon.png')
		const manifest = await visitor.fetch('/manifest.webmanifest')
		expect(manifest.headers.get('content-type')).toContain('application/manifest+json')
		const body = (await manifest.json()) as { name: string; icons: Array<{ src: string; type: string }> }
		expect(body.name).toBe('Dareboost')
		expect(body.icons.length).toBeGreaterThan(0)
		for (const icon of body.icons) {
			const file = await visitor.fetch(icon.src)
			expect(file.status, icon.src).toBe(200)
			expect(file.headers.get('content-type'), icon.src).toContain(icon.type)
		}
		for (const path of ['/favicon.ico', '/favicon.svg', '/apple-touch-icon.png', '/og-image.png']) {
			expect((await visitor.fetch(path)).status, path).toBe(200)
		}
	})

	test('robots.txt keeps crawlers out of the API, development tools, settings and overlays and names the sitemap', async () => {
		const response = await new Visitor(server).fetch('/robots.txt')
		expect(response.headers.get('content-type')).toContain('text/plain')
		const text = await response.text()
		for (const path of ['/api/', '/dev/', '/en/settings', '/de/settings', '/tr/overlay/', '/es/overlay/']) expect(text).toContain(`Disallow: ${path}`)
		expect(text).not.toMatch(/^Disallow: \/$/m)
		expect(text).toContain(`Sitemap: ${base}/sitemap.xml`)
	})

	test('the sitemap lists the public pages in four languages with their alternates, and nothing private', async () => {
		const response = await new Visitor(server).fetch('/sitemap.xml')
		expect(response.headers.get('content-type')).toContain('application/xml')
		const xml = await response.text()
		const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
		const expected = LANGS.flatMap((lang) => ['', '/shop', '/terms', '/privacy', '/imprint', '/creator-agreement'].map((path) => `${base}/${lang}${path}`))
		expect(locs.sort()).toEqual(expected.sort())
		expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${base}/"/>`)
		expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="tr" href="${base}/tr/imprint"/>`)
		for (const secret of ['/settings', '/overlay', '/api/', '/dev/', `/session/${live.id}`]) expect(xml).not.toContain(secret)
	})
})
