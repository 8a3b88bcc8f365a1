import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Route } from './+types/shop'
import { StaticPage } from '#app/components/static-page'
import { safeRedirectPath } from '#app/utils/redirect'

/** `returnPath` (from the boost dialog) is honoured only for same-origin paths. */
export function loader({ request }: Route.LoaderArgs) {
	const returnPath = new URL(request.url).searchParams.get('returnPath')
	return { returnPath: returnPath ? safeRedirectPath(returnPath, '') || null : null }
}

export default function ShopPage({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	return (
		<StaticPage title={t('pages.shop.title')} lead={t('pages.shop.lead')}>
			{loaderData.returnPath ? (
				<p>
					<Link to={loaderData.returnPath}>{t('pages.shop.back')}</Link>
				</p>
			) : null}
		</StaticPage>
	)
}
