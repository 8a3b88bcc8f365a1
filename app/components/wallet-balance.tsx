import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Locale } from '#app/i18n/locales'
import { formatCoins } from '#app/modules/shop/format'

/** The signed-in user's coins in the header, in the page's language; opens the shop. */
export function WalletBalance({ locale, balance }: { locale: Locale; balance: number }) {
	const { t } = useTranslation()
	const coins = formatCoins(locale, balance)
	return (
		<Link
			to={`/${locale}/shop`}
			className="wallet-balance"
			aria-label={t('wallet.balance-label', { coins })}
			data-testid="wallet-balance"
		>
			<span className="wallet-balance__icon" aria-hidden="true">
				◎
			</span>
			<span className="wallet-balance__amount">{coins}</span>
		</Link>
	)
}
