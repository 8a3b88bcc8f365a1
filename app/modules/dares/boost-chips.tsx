import type { FormEvent } from 'react'
import { Form } from 'react-router'
import { useTranslation } from '#app/i18n/translation'
import type { Locale } from '#app/i18n/locales'
import { formatCoins } from '#app/modules/shop/format'
import { DARE_LIMITS } from './limits'

/** The fixed one-tap amounts; the session's minimum reward joins them (docs/product.md §6.4). */
export const QUICK_BOOSTS = [10, 50, 100] as const

/** The chips' amounts: the fixed ones and the session's minimum, each once, smallest first, each a boost the form allows. */
export function quickBoosts(minBoost: number): number[] {
	const { min, max, step } = DARE_LIMITS.boost
	const allowed = (amount: number) => Number.isInteger(amount) && amount >= min && amount <= max && (amount - min) % step === 0
	return [...new Set<number>([...QUICK_BOOSTS, minBoost])].filter(allowed).sort((a, b) => a - b)
}

export type BoostChipsProps = {
	sessionId: string
	dareId: string
	formKey: string
	minBoost: number
	lang: Locale
	/** A boost of this dare is being sent (the chips wait, as the boost button does). */
	pending: boolean
	/** The boost form's own handler (the client's balance check, the gated fetcher); absent: a plain post. */
	onSubmit?: (event: FormEvent<HTMLFormElement>) => void
}

/**
 * One-tap boosts beside the amount field: each chip is a submit button
 * carrying its amount (`amount=N`), so a tap boosts at once, also without
 * JavaScript. A form of its own: inside the field's form it would send a
 * second `amount`, and the field's refusal of what is typed there would
 * stop the chip's post too. Its key differs from the field's, so a chip
 * and the field on one page render are two boosts; a chip sent twice
 * (a double tap, a resent page) is answered as the first.
 */
export function BoostChips({ sessionId, dareId, formKey, minBoost, lang, pending, onSubmit }: BoostChipsProps) {
	const { t } = useTranslation()
	return (
		<Form method="post" className="dare__chips" preventScrollReset onSubmit={onSubmit}>
			<input type="hidden" name="sessionId" value={sessionId} />
			<input type="hidden" name="dareId" value={dareId} />
			<input type="hidden" name="intent" value="boost" />
			<input type="hidden" name="key" value={`boost:${formKey}:${dareId}:quick`} />
			{/* A group, not a named form: a named form is a landmark, one per dare. */}
			<div role="group" aria-label={t('dares.quick-boost')} className="dare__chips-row">
				{quickBoosts(minBoost).map((amount) => {
					const coins = formatCoins(lang, amount)
					// Named "+10 coins" in the group "Quick boost": the visible amount in the name (WCAG 2.5.3), and not the boost button's name.
					return (
						<button
							key={amount}
							type="submit"
							name="amount"
							value={amount}
							className="chip"
							aria-label={t('dares.quick-boost-amount', { coins })}
							aria-busy={pending || undefined}
							disabled={pending}
						>
							{`+${coins}`}
						</button>
					)
				})}
			</div>
		</Form>
	)
}
