import { useEffect } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { data, Link, useRevalidator } from 'react-router'
import type { Route } from './+types/shop-result'
import { PageTitle } from '#app/components/page-title'
import { viewerContext } from '#app/context.server'
import { useTrackOnce } from '#app/modules/analytics/use-track'
import { formatCoins } from '#app/modules/shop/format'
import { readPurchaseHistory } from '#app/modules/shop/service.server'
import shopStylesHref from '#app/styles/shop.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'
import { queryAsViewer } from '#app/utils/db.server'
import { safeRedirectPath } from '#app/utils/redirect'

export const handle: StylesheetsHandle = { stylesheets: [shopStylesHref] }

/**
 * Where Stripe Checkout sends the buyer back: /{lang}/shop/success and
 * /{lang}/shop/cancel. The page never credits anything (the webhook does);
 * it shows the purchase's state, and the way back to `returnPath`.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
	const url = new URL(request.url)
	const outcome = url.pathname.endsWith('/cancel') ? ('cancel' as const) : ('success' as const)
	const returnPath = safeRedirectPath(url.searchParams.get('returnPath'), '') || null
	const purchaseId = url.searchParams.get('purchase')
	const viewer = context.get(viewerContext)
	const history = viewer && purchaseId ? await queryAsViewer(context, (tx) => readPurchaseHistory(tx, 200)) : []
	const purchase = history.find((p) => p.id === purchaseId) ?? null
	// For analytics: this is the viewer's first completed purchase.
	const firstPurchase = purchase?.status === 'completed' && history.filter((p) => p.status === 'completed').length === 1
	return data(
		{ outcome, returnPath, purchase, firstPurchase, shopPath: `/${params.lang}/shop${returnPath ? `?returnPath=${encodeURIComponent(returnPath)}` : ''}` },
		{ headers: { 'cache-control': 'no-store' } },
	)
}

export default function ShopResultPage({ loaderData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { outcome, returnPath, purchase, firstPurchase, shopPath } = loaderData
	const revalidator = useRevalidator()
	useTrackOnce('first-purchase', { coins: purchase?.coins ?? 0 }, firstPurchase, purchase?.id ?? '')
	const waiting = outcome === 'success' && purchase?.status === 'pending'
	// The webhook usually lands within seconds: look again a few times.
	useEffect(() => {
		if (!waiting) return
		const timer = setInterval(() => void revalidator.revalidate(), 2000)
		const stop = setTimeout(() => clearInterval(timer), 60_000)
		return () => {
			clearInterval(timer)
			clearTimeout(stop)
		}
	}, [waiting, revalidator])
	const title = outcome === 'cancel' ? t('shop.cancel-title') : t('shop.success-title')
	const coins = purchase ? formatCoins(params.lang, purchase.coins) : null
	return (
		<article className="page shop">
			<PageTitle title={title} />
			<h1>{title}</h1>
			<p className="page__lead" role="status">
				{outcome === 'cancel'
					? t('shop.cancel-body')
					: purchase?.status === 'completed'
						? t('shop.success-credited', { coins })
						: t('shop.success-pending')}
			</p>
			<p className="shop__back">
				{returnPath ? (
					<Link className="button button--primary" to={returnPath}>
						{t('shop.back')}
					</Link>
				) : null}{' '}
				<Link className="button button--ghost" to={shopPath}>
					{t('shop.to-shop')}
				</Link>
			</p>
		</article>
	)
}
