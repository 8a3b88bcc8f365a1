import { useState } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { Link, useMatches } from 'react-router'
import type { Locale } from '#app/i18n/locales'
import { useCatchUp, useLiveTopic } from '#app/modules/realtime/use-live'
import { formatCoins } from '#app/modules/shop/format'
import { balancePushed, useLiveBalance } from '#app/modules/wallet/live-balance'
import { useHydrated } from '#app/utils/use-hydrated'

/**
 * The signed-in user's coins in the header, in the page's language; opens the
 * shop. Three readings, each newer than the one before: the root loader's
 * (`balance`), a page's own (`walletBalance`, see usePageReading) and the
 * live one (wallets_{userId}, `{balance}`: subscribed while signed in, after
 * hydration) or an action's answer (app/modules/wallet/live-balance.ts). A
 * newer reading is shown until the one it arrived on top of changes: a new
 * loader reading replaces it.
 */
export function WalletBalance({ locale, balance, userId }: { locale: Locale; balance: number; userId: string }) {
	const hydrated = useHydrated()
	const read = usePageReading(balance, userId)
	return hydrated ? <LiveWalletBalance locale={locale} balance={read} userId={userId} /> : <Balance locale={locale} balance={read} />
}

/** A reading that arrived on top of `base`. */
type Newer = { base: number; value: number }

/**
 * A page whose loader settles money in its own transaction reads the wallet
 * after that (`walletBalance`: the session page, whose read resolves due
 * votes while the root loader reads `balance` in parallel), for the viewer it
 * names (`viewerId`), never someone signed in since in another tab. Kept
 * after leaving the page: the root loader does not run again on a link.
 */
export function usePageReading(balance: number, userId: string): number {
	const pageBalance = useMatches()
		.map((m) => m.data as { walletBalance?: unknown; viewerId?: unknown } | undefined)
		.findLast((data) => typeof data?.walletBalance === 'number' && data.viewerId === userId)?.walletBalance as number | undefined
	const [kept, setKept] = useState<Newer | null>(null)
	if (pageBalance !== undefined && (kept?.value !== pageBalance || kept.base !== balance)) setKept({ base: balance, value: pageBalance })
	return kept && kept.base === balance ? kept.value : balance
}

function LiveWalletBalance({ locale, balance, userId }: { locale: Locale; balance: number; userId: string }) {
	// Rejoined after a cut: the balance is read again (updates sent meanwhile are lost).
	const catchUp = useCatchUp()
	useLiveTopic(`wallets_${userId}`, 'balance', userId, (payload) => balancePushed(userId, balance, payload), catchUp)
	return <Balance locale={locale} balance={useLiveBalance(userId, balance)} />
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
