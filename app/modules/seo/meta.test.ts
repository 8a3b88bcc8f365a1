import { expect, test } from 'vitest'
import { alternateUrls, canonicalUrl } from './meta'
import { robotsTxt, sitemapXml } from './sitemap.server'

const ORIGIN = 'https://dares.example'

test('the canonical URL is the public origin and the path, without query or trailing slash', () => {
	expect(canonicalUrl(ORIGIN, '/de/shop/')).toBe('https://dares.example/de/shop')
	expect(canonicalUrl(`${ORIGIN}/`, '/en')).toBe('https://dares.example/en')
})

test('a page names itself in the four languages, and x-default is English, or / for home', () => {
	expect(alternateUrls(ORIGIN, '/tr/privacy')).toEqual([
		{ hrefLang: 'en', href: 'https://dares.example/en/privacy' },
		{ hrefLang: 'de', href: 'https://dares.example/de/privacy' },
		{ hrefLang: 'es', href: 'https://dares.example/es/privacy' },
		{ hrefLang: 'tr', href: 'https://dares.example/tr/privacy' },
		{ hrefLang: 'x-default', href: 'https://dares.example/en/privacy' },
	])
	expect(alternateUrls(ORIGIN, '/es').at(-1)).toEqual({ hrefLang: 'x-default', href: 'https://dares.example/' })
})

test('the sitemap takes more pages from its sources and escapes what they give', async () => {
	const xml = await sitemapXml(ORIGIN, [async () => [{ path: '/twitch/a&b', lastModified: '2026-11-23' }]])
	expect(xml).toContain('<loc>https://dares.example/de/twitch/a&amp;b</loc><lastmod>2026-11-23</lastmod>')
	expect(xml.match(/<url>/g)).toHaveLength(7 * 4)
})

test('robots.txt disallows the private paths and points at the sitemap on the public origin', () => {
	const text = robotsTxt(ORIGIN)
	expect(text).toMatch(/^Disallow: \/api\/$/m)
	expect(text).toMatch(/^Disallow: \/de\/settings$/m)
	expect(text).toMatch(/^Sitemap: https:\/\/dares\.example\/sitemap\.xml$/m)
})
