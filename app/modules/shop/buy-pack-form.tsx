import { useState, type FormEvent } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { Form, useNavigate, useNavigation, useRevalidator } from 'react-router'
import { toast } from '#app/components/toast'
import { ErrorList } from '#app/components/forms'
import type { ShopPack } from '#app/env.server'
import { fetchWithRetry } from '#app/utils/fetch-with-retry'
import { useHydrated } from '#app/utils/use-hydrated'
import { formatCoins, formatPrice } from './format'

type BuyAnswer =
	| { ok: true; coins: number; balance: number; redirectTo: string | null }
	| { ok: true; checkoutUrl: string }
	| { ok: false; error: string }

/**
 * One pack and its buy button. Without JavaScript it is a plain form post to
 * the shop page. With JavaScript the same form data (the same idempotency
 * key) goes to /api/shop/buy through fetchWithRetry, so a lost answer is
 * retried and still buys once. Visitors and unfinished accounts fall back to
 * the form post, whose redirects explain what is missing.
 */
export function BuyPackForm({
	pack,
	locale,
	currency,
	idempotencyKey,
	returnPath,
	disabled,
	serverError,
}: {
	pack: ShopPack
	locale: string
	currency: string
	idempotencyKey: string
	returnPath: string | null
	disabled: boolean
	serverError: string | null
}) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const navigate = useNavigate()
	const navigation = useNavigation()
	const revalidator = useRevalidator()
	const [busy, setBusy] = useState(false)
	const [error, setError] = useState<string | null>(null)
	const coins = formatCoins(locale, pack.coins)
	const price = formatPrice(locale, pack.amountMinor, currency)
	const pending = busy || (navigation.state === 'submitting' && navigation.formData?.get('pack') === pack.id)

	async function onSubmit(event: FormEvent<HTMLFormElement>) {
		if (!hydrated) return
		event.preventDefault()
		const form = event.currentTarget
		setBusy(true)
		setError(null)
		try {
			const response = await fetchWithRetry(`/api/shop/buy?lang=${locale}`, {
				method: 'POST',
				body: new FormData(form),
				headers: { accept: 'application/json' },
			})
			const answer = (await response.json().catch(() => null)) as BuyAnswer | null
			if (response.status === 401 || response.status === 403) {
				// Sign-in or the account's missing steps: the page flow handles them.
				form.submit()
				return
			}
			if (!answer) throw new Error(`unexpected answer ${response.status}`)
			if (!answer.ok) {
				setError(answer.error)
				return
			}
			if ('checkoutUrl' in answer) {
				window.location.assign(answer.checkoutUrl)
				return
			}
			toast.success(t('shop.credited', { coins: formatCoins(locale, answer.coins) }))
			if (answer.redirectTo) await navigate(answer.redirectTo)
			else await revalidator.revalidate()
		} catch {
			setError('error-connection')
		} finally {
			setBusy(false)
		}
	}

	const errors = [error ?? serverError].filter((e): e is string => Boolean(e))
	return (
		<li className="shop-pack">
			<Form method="post" onSubmit={onSubmit} className="shop-pack__form" aria-label={t('shop.pack-coins', { coins })}>
				<p className="shop-pack__coins">
					<span className="shop-pack__icon" aria-hidden="true">
						◎
					</span>
					{t('shop.pack-coins', { coins })}
				</p>
				<p className="shop-pack__price">{price}</p>
				<input type="hidden" name="pack" value={pack.id} readOnly />
				<input type="hidden" name="idempotencyKey" value={idempotencyKey} readOnly />
				{returnPath ? <input type="hidden" name="returnPath" value={returnPath} readOnly /> : null}
				<button type="submit" className="button button--primary shop-pack__buy" disabled={disabled || pending}>
					{pending ? t('shop.buying') : t('shop.buy', { price })}
				</button>
				<ErrorList errors={errors} />
			</Form>
		</li>
	)
}
