import { DEFAULT_LOCALE, LOCALE_CODES, localeFromPath, switchLocalePath, type Locale } from '#app/i18n/locales'

/**
 * The URLs a page announces to search engines and link previews, built from
 * the public origin (APP_URL) so they are the same behind any proxy. Shared by
 * the page head (components/page-title.tsx) and the sitemap, so both name a
 * page's languages the same way.
 */

/** The site-wide preview image (1200×630), public/og-image.png. */
export const DEFAULT_SHARE_IMAGE = { path: '/og-image.png', width: 1200, height: 630 } as const

export function absoluteUrl(origin: string, path: string): string {
	return new URL(path, origin.endsWith('/') ? origin : `${origin}/`).toString()
}

/** The page's own address without query or hash: `/en/shop?returnPath=…` is `/en/shop`. */
export function canonicalUrl(origin: string, pathname: string): string {
	return absoluteUrl(origin, pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname)
}

export type Alternate = { hrefLang: Locale | 'x-default'; href: string }

/**
 * The same page in each language, and `x-default` for visitors whose language
 * is none of them: home's x-default is `/` (it picks the visitor's language),
 * every other page's is its English version (the default locale).
 */
export function alternateUrls(origin: string, pathname: string): Alternate[] {
	const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
	const lang = localeFromPath(path)
	const isHome = lang !== null && path === `/${lang}`
	return [
		...LOCALE_CODES.map((code) => ({ hrefLang: code, href: absoluteUrl(origin, switchLocalePath(path, code)) })),
		{ hrefLang: 'x-default' as const, href: absoluteUrl(origin, isHome ? '/' : switchLocalePath(path, DEFAULT_LOCALE)) },
	]
}

/** `og:locale` wants a territory: en_US, de_DE, es_ES, tr_TR. */
export const OG_LOCALE: Record<Locale, string> = { en: 'en_US', de: 'de_DE', es: 'es_ES', tr: 'tr_TR' }

/**
 * What a page may say about itself beyond its title. The session page passes
 * who is live on which platform as the description and its generated card
 * (`/{lang}/session/{id}/card.png`, ADR 034) as the image; the rest use the
 * site-wide defaults.
 */
export type ShareImage = { url: string; width?: number; height?: number; alt: string }
export type PageMetaInput = {
	title: string
	description?: string
	/** An absolute or site-relative image for Open Graph and Twitter cards. */
	image?: ShareImage
	/** `website` by default; a live session may say `video.other`. */
	type?: 'website' | 'article' | 'video.other' | 'profile'
	/** Error pages and private pages: not indexed, no canonical or alternates. */
	noindex?: boolean
}
