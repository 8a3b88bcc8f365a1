import { useState } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { Link } from 'react-router'
import type { Locale } from '#app/i18n/locales'
import { useLiveTopic } from '#app/modules/realtime/use-live'
import { formatCoins } from '#app/modules/shop/format'
import { useHydrated } from '#app/utils/use-hydrated'

/**
 * The signed-in user's coins in the header, in the page's language; opens the
 * shop. Live (wallets_{userId}, `{balance}`): subscribed while signed in,
 * after hydration; a newer loader value replaces the live one.
 */
export function WalletBalance({ locale, balance, userId }: { locale: Locale; balance: number; userId: string }) {
	const hydrated = useHydrated()
	return hydrated ? <LiveWalletBalance locale={locale} balance={balance} userId={userId} /> : <Balance locale={locale} balance={balance} />
}

function LiveWalletBalance({ locale, balance, userId }: { locale: Locale; balance: number; userId: string }) {
	// The live value, and the loader's value it arrived on top of.
	const [live, setLive] = useState<{ base: number; value: number } | null>(null)
	useLiveTopic<{ balance?: number; seq?: number }>(`wallets_${userId}`, 'balance', userId, (payload) => {
		if (typeof payload.balance === 'number') setLive({ base: balance, value: payload.balance })
	})
	return <Balance locale={locale} balance={live && live.base === balance ? live.value : balance} />
}

function Balance({ locale, balance }: { locale: Locale; balance: number }) {
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
