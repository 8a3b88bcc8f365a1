import { randomUUID } from 'node:crypto'
import { useTranslation } from '#app/i18n/translation'
import { data, Link, redirect } from 'react-router'
import { redirectWithSuccess } from 'remix-toast'
import type { Route } from './+types/shop'
import { PageTitle } from '#app/components/page-title'
import { servicesContext, viewerContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'
import { isLocale } from '#app/i18n/locales'
import { runBuy } from '#app/modules/shop/buy-action.server'
import { BuyPackForm } from '#app/modules/shop/buy-pack-form'
import { formatCoins } from '#app/modules/shop/format'
import { PurchaseHistory } from '#app/modules/shop/purchase-history'
import { readPurchaseHistory, shopOffer } from '#app/modules/shop/service.server'
import shopStylesHref from '#app/styles/shop.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'
import { queryAsViewer } from '#app/utils/db.server'
import { invalidRoute } from '#app/utils/http'
import { safeRedirectPath } from '#app/utils/redirect'

export const handle: StylesheetsHandle = { stylesheets: [shopStylesHref] }

/**
 * The shop (docs/product.md §9): coin packs from the operator's configuration,
 * bought through Stripe Checkout or, on the embedded default, the test
 * checkout. `returnPath` (from a dare's boost form) is where a purchase sends
 * the buyer back to, honoured only for same-origin paths.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { env } = context.get(servicesContext)
	const viewer = context.get(viewerContext)
	const returnPath = safeRedirectPath(new URL(request.url).searchParams.get('returnPath'), '') || null
	const offer = shopOffer(env)
	// A fresh key per pack on every render: the form sends it back, so a
	// resubmission of this rendering buys once.
	const keys = Object.fromEntries(offer.packs.map((p) => [p.id, randomUUID()]))
	const history = viewer ? await queryAsViewer(context, (tx) => readPurchaseHistory(tx)) : null
	return data({ offer, returnPath, keys, history }, { headers: { 'cache-control': 'no-store' } })
}

export async function action({ request, context, params }: Route.ActionArgs) {
	if (!isLocale(params.lang)) invalidRoute(request)
	const { t } = getInstance(context)
	const result = await runBuy(request, context, params.lang)
	if (!result.ok) return data({ pack: result.pack, error: result.code }, { status: result.status })
	if (result.outcome.kind === 'checkout') return redirect(result.outcome.url)
	return redirectWithSuccess(
		result.returnPath ?? `/${params.lang}/shop`,
		t('shop.credited', { coins: formatCoins(params.lang, result.outcome.coins) }),
	)
}

export default function ShopPage({ loaderData, actionData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { offer, returnPath, keys, history } = loaderData
	const locale = params.lang
	return (
		<article className="page shop">
			<PageTitle title={t('shop.title')} />
			<h1>{t('shop.title')}</h1>
			<p className="page__lead">{t('shop.lead')}</p>
			{offer.mode === 'test' ? (
				<p className="shop-notice shop-notice--test" role="note">
					<strong>{t('shop.test-title')}</strong> {t('shop.test-body')}
				</p>
			) : offer.mode === 'stripe' ? (
				<p className="shop-notice" role="note">
					{t('shop.stripe-body')}
				</p>
			) : (
				<p className="shop-notice shop-notice--closed" role="note">
					{t('shop.closed-body')}
				</p>
			)}
			<ul className="shop-packs">
				{offer.packs.map((pack) => (
					<BuyPackForm
						key={`${pack.id}:${keys[pack.id]}`}
						pack={pack}
						locale={locale}
						currency={offer.currency}
						idempotencyKey={keys[pack.id] ?? ''}
						returnPath={returnPath}
						disabled={offer.mode === 'closed'}
						serverError={actionData && actionData.pack === pack.id ? actionData.error : null}
					/>
				))}
			</ul>
			{actionData && actionData.pack !== null && !offer.packs.some((p) => p.id === actionData.pack) ? (
				<p className="form-errors" role="alert">
					{t(`errors.${actionData.error}`, { defaultValue: t('errors.unknown-error') })}
				</p>
			) : null}
			{returnPath ? (
				<p className="shop__back">
					<Link to={returnPath}>{t('shop.back')}</Link>
				</p>
			) : null}
			{history ? <PurchaseHistory locale={locale} purchases={history} /> : null}
		</article>
	)
}
