import { LOCALE_CODES } from '#app/i18n/locales'
import { absoluteUrl, alternateUrls } from './meta'

/**
 * The public pages search engines should know, each in the four languages
 * with its alternates. Private and technical paths stay out (robots.txt
 * disallows them).
 */
export const PUBLIC_PAGES = ['', '/shop', '/terms', '/privacy', '/imprint', '/creator-agreement'] as const

export type SitemapEntry = { path: string; lastModified?: string }

/**
 * More entries, added later by their features: the live session pages
 * (`/{lang}/{platform}/{channel}`) will come from the sessions module through
 * a source like this, each path without its language prefix.
 */
export type SitemapSource = () => Promise<SitemapEntry[]>

const escapeXml = (value: string) =>
	value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')

export async function sitemapXml(origin: string, sources: SitemapSource[] = []): Promise<string> {
	const entries: SitemapEntry[] = [...PUBLIC_PAGES.map((path) => ({ path })), ...(await Promise.all(sources.map((source) => source()))).flat()]
	const urls = entries.flatMap(({ path, lastModified }) =>
		LOCALE_CODES.map((lang) => {
			const own = `/${lang}${path}`
			const links = alternateUrls(origin, own)
				.map((alternate) => `<xhtml:link rel="alternate" hreflang="${alternate.hrefLang}" href="${escapeXml(alternate.href)}"/>`)
				.join('')
			const modified = lastModified ? `<lastmod>${escapeXml(lastModified)}</lastmod>` : ''
			return `<url><loc>${escapeXml(absoluteUrl(origin, own))}</loc>${modified}${links}</url>`
		}),
	)
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
		...urls,
		'</urlset>',
		'',
	].join('\n')
}

/** Paths no crawler needs: the API, development tools, private pages and the stream overlay. */
export const DISALLOWED_PATHS = ['/api/', '/dev/', '/overlay/', '/settings', ...LOCALE_CODES.flatMap((lang) => [`/${lang}/settings`, `/${lang}/overlay/`])]

export function robotsTxt(origin: string): string {
	return ['User-agent: *', ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`), '', `Sitemap: ${absoluteUrl(origin, '/sitemap.xml')}`, ''].join('\n')
}
