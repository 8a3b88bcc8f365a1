import { useTranslation } from '#app/i18n/translation'
import { Link, useLocation } from 'react-router'
import { DEFAULT_LOCALE, localeFromPath } from '#app/i18n/locales'
import { isNotFoundData } from '#app/utils/http'
import { PageTitle } from './page-title'

/**
 * The error page (docs/product.md §3.4): title, description, the HTTP status, and a button
 * back home. Following the link leaves the errored route, which clears the
 * error boundary.
 */
function isCrossSite(data: unknown): boolean {
	return typeof data === 'object' && data !== null && 'kind' in data && data.kind === 'cross-site'
}

export function ErrorPage({ status, data }: { status: number; data: unknown }) {
	const { t } = useTranslation()
	const location = useLocation()
	const locale = localeFromPath(location.pathname) ?? DEFAULT_LOCALE
	const notFound = status === 404
	const crossSite = status === 403 && isCrossSite(data)
	const title = notFound ? t('error.not-found-title') : crossSite ? t('error.forbidden-title') : t('error.title')
	const message = crossSite
		? t('error.cross-site')
		: isNotFoundData(data)
		? t(data.kind === 'invalid-route' ? 'error.invalid-route' : 'error.not-found', { path: data.path })
		: notFound
			? t('error.not-found', { path: location.pathname })
			: null
	return (
		<section className="error-page" aria-labelledby="error-title">
			<PageTitle title={title} noindex />
			<p className="error-page__status">{t('error.status', { status })}</p>
			<h1 id="error-title">{title}</h1>
			{message ? <p className="error-page__message">{message}</p> : null}
			<p>{notFound ? t('error.not-found-description') : t('error.description')}</p>
			<Link className="button button--primary" to={`/${locale}`}>
				{t('error.back-home')}
			</Link>
		</section>
	)
}
