import { useTranslation } from '#app/i18n/translation'
import { useLocation } from 'react-router'
import { useRootData } from '#app/root-data'
import { DEFAULT_LOCALE, localeFromPath } from '#app/i18n/locales'
import {
	absoluteUrl,
	alternateUrls,
	canonicalUrl,
	DEFAULT_SHARE_IMAGE,
	OG_LOCALE,
	type PageMetaInput,
} from '#app/modules/seo/meta'

/**
 * A page's head: its document title, description, canonical URL, the same
 * page in the other languages (hreflang and x-default) and the Open Graph and
 * Twitter card. Every page renders one; React 19 hoists these elements into
 * <head>, during server rendering too, and swaps them on client navigation.
 *
 * The hook for richer previews: a page passes its own `description` and
 * `image` (the live session page: the creator and the title, and later a
 * generated card image); without them the site-wide defaults apply.
 */
export function PageTitle({ title, description, image, type = 'website', noindex = false }: PageMetaInput) {
	const { t } = useTranslation()
	const { pathname } = useLocation()
	const rootData = useRootData()
	const origin = rootData?.env.APP_URL
	const locale = localeFromPath(pathname) ?? DEFAULT_LOCALE
	const siteName = t('app.name')
	const fullTitle = `${title} · ${siteName}`
	const text = description ?? t('app.description')
	const shareImage = image ?? { ...DEFAULT_SHARE_IMAGE, url: DEFAULT_SHARE_IMAGE.path, alt: t('app.share-image-alt') }
	return (
		<>
			<title>{fullTitle}</title>
			<meta name="description" content={text} />
			{noindex ? <meta name="robots" content="noindex" /> : null}
			{origin && !noindex ? (
				<>
					<link rel="canonical" href={canonicalUrl(origin, pathname)} />
					{alternateUrls(origin, pathname).map((alternate) => (
						<link key={alternate.hrefLang} rel="alternate" hrefLang={alternate.hrefLang} href={alternate.href} />
					))}
					<meta property="og:url" content={canonicalUrl(origin, pathname)} />
				</>
			) : null}
			<meta property="og:type" content={type} />
			<meta property="og:site_name" content={siteName} />
			<meta property="og:title" content={title} />
			<meta property="og:description" content={text} />
			<meta property="og:locale" content={OG_LOCALE[locale]} />
			{origin ? <meta property="og:image" content={absoluteUrl(origin, shareImage.url)} /> : null}
			{shareImage.width ? <meta property="og:image:width" content={String(shareImage.width)} /> : null}
			{shareImage.height ? <meta property="og:image:height" content={String(shareImage.height)} /> : null}
			<meta property="og:image:alt" content={shareImage.alt} />
			<meta name="twitter:card" content="summary_large_image" />
			<meta name="twitter:title" content={fullTitle} />
			<meta name="twitter:description" content={text} />
			{origin ? <meta name="twitter:image" content={absoluteUrl(origin, shareImage.url)} /> : null}
			<meta name="twitter:image:alt" content={shareImage.alt} />
		</>
	)
}
