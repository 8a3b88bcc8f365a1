import { useTranslation } from '#app/i18n/translation'
import type { PurchaseHistoryRow } from './service.server'
import { formatCoins, formatPrice } from './format'

/**
 * The viewer's purchases (date, pack, coins, amount, status). Its data comes
 * from readPurchaseHistory() in the route's loader.
 */
export function PurchaseHistory({
	locale,
	purchases,
	className = 'purchase-history',
}: {
	locale: string
	purchases: PurchaseHistoryRow[]
	/** The settings page shows it as one of its cards. */
	className?: string
}) {
	const { t } = useTranslation()
	const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
	return (
		<section className={className} aria-labelledby="purchase-history-title">
			<h2 id="purchase-history-title">{t('shop.history-title')}</h2>
			{purchases.length === 0 ? (
				<p className="purchase-history__empty">{t('shop.history-empty')}</p>
			) : (
				<div className="purchase-history__scroll">
					<table>
						<thead>
							<tr>
								<th scope="col">{t('shop.history-date')}</th>
								<th scope="col">{t('shop.history-pack')}</th>
								<th scope="col">{t('shop.history-amount')}</th>
								<th scope="col">{t('shop.history-status')}</th>
							</tr>
						</thead>
						<tbody>
							{purchases.map((p) => (
								<tr key={p.id}>
									<td>
										<time dateTime={p.createdAt}>{dates.format(new Date(p.createdAt))}</time>
									</td>
									<td>{t('shop.pack-coins', { coins: formatCoins(locale, p.coins) })}</td>
									<td>
										{formatPrice(locale, p.amountMinor, p.currency)}
										{p.provider === 'test' ? <span className="purchase-history__test"> ({t('shop.history-test')})</span> : null}
									</td>
									<td>
										<span className={`purchase-status purchase-status--${p.status}`}>{t(`shop.status-${p.status}`)}</span>
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
		</section>
	)
}
