import { useTranslation } from '#app/i18n/translation'
import type { Locale } from '#app/i18n/locales'
import { formatCoins } from '#app/modules/shop/format'
import type { DareStatus } from './service.server'

/** The settled states whose coins went back to their boosters (docs/product.md §8.8). */
const REFUNDED: ReadonlySet<DareStatus> = new Set(['failed', 'rejected', 'expired'])

/**
 * Where a dare's coins are (docs/product.md §6.10): a running dare's pot; a
 * completed one's pot, paid out to the creator; a failed, rejected or
 * expired one says "Refunded" instead of a pot its boosters already have
 * back (a dare that held no coins shows its empty pot).
 */
export function DarePot({ status, pot, lang }: { status: DareStatus; pot: number; lang: Locale }) {
	const { t } = useTranslation()
	const coins = formatCoins(lang, pot)
	if (REFUNDED.has(status) && pot > 0) {
		return (
			<strong className="dare__pot dare__pot--refunded">
				<span className="visually-hidden">{t('dares.refunded-label', { coins })}</span>
				<span aria-hidden="true">{t('dares.refunded')}</span>
			</strong>
		)
	}
	if (status === 'completed') {
		return (
			<strong className="dare__pot dare__pot--paid">
				<span className="visually-hidden">{t('dares.paid-out-label', { coins })}</span>
				<span aria-hidden="true">
					◎ {coins} <span className="dare__pot-note">{t('dares.paid-out')}</span>
				</span>
			</strong>
		)
	}
	return (
		<strong className="dare__pot">
			<span className="visually-hidden">{t('dares.pot-label', { coins })}</span>
			<span aria-hidden="true">◎ {coins}</span>
		</strong>
	)
}
