import { z } from '#app/utils/zod'

/**
 * The operators' decisions and the users' appeals as forms (docs/product.md
 * §13.3): what public.moderate and public.appeal_decision take. The database
 * checks every rule again; these give the form its limits and the server a
 * clear answer before it asks.
 */

/** The rules of the terms' section 6 a decision rests on (app_private.moderation_decisions.ground), 'none' for a decision that takes no measure. */
export const GROUNDS = ['hate', 'harassment', 'sexual', 'violence', 'illegal', 'spam', 'other'] as const
export type Ground = (typeof GROUNDS)[number] | 'none'

/** What the queue holds: a report, a held dare, an appealed decision. */
export const ITEM_KINDS = ['report', 'held', 'appeal'] as const
export type ItemKind = (typeof ITEM_KINDS)[number]

export const DECISION_ACTIONS = ['remove_dare', 'dismiss_report', 'approve_dare', 'suspend_user', 'restrict_payouts', 'appeal_upheld', 'appeal_granted'] as const
export type DecisionAction = (typeof DECISION_ACTIONS)[number]

/** The decisions an operator may take on each kind of item, in the order the form offers them. */
export const ACTIONS_BY_KIND: Record<ItemKind, readonly DecisionAction[]> = {
	report: ['remove_dare', 'dismiss_report', 'suspend_user', 'restrict_payouts'],
	held: ['approve_dare', 'remove_dare'],
	appeal: ['appeal_upheld', 'appeal_granted'],
}

/** Decisions that take no measure against anyone: no rule was broken, so their ground is 'none'. */
export const NO_MEASURE: readonly DecisionAction[] = ['dismiss_report', 'approve_dare', 'appeal_granted']

/** Decisions the affected user may appeal (app_private.appealable), once within six months: a rejected payout too (docs/product.md §14.4). */
export const APPEALABLE = ['remove_dare', 'suspend_user', 'restrict_payouts', 'reject_payout'] as const
export type AppealableAction = (typeof APPEALABLE)[number]

export const MODERATION_LIMITS = { explanation: 2000, statement: 2000 } as const

/** Why a decision form is refused before the database is asked: an `error-…` code (errors.*) or a key of the operator block. */
export type DecisionFormError = 'error-invalid-decision' | 'error-decision-explanation-required' | 'operator.ground-needed' | 'operator.ground-none'

const DecisionFields = z.object({
	kind: z.enum(ITEM_KINDS),
	target: z.uuid(),
	action: z.enum(DECISION_ACTIONS),
	ground: z.enum([...GROUNDS, 'none']),
	explanation: z.string().trim().min(1).max(MODERATION_LIMITS.explanation),
})
export type DecisionForm = z.infer<typeof DecisionFields>

/** The decision form read, or the first reason it cannot be sent. */
export function parseDecision(formData: FormData): { ok: true; value: DecisionForm } | { ok: false; error: DecisionFormError } {
	const parsed = DecisionFields.safeParse(Object.fromEntries(['kind', 'target', 'action', 'ground', 'explanation'].map((name) => [name, formData.get(name) ?? undefined])))
	if (!parsed.success) {
		const field = parsed.error.issues[0]?.path[0]
		if (field === 'explanation') return { ok: false, error: 'error-decision-explanation-required' }
		if (field === 'ground') return { ok: false, error: 'operator.ground-needed' }
		return { ok: false, error: 'error-invalid-decision' }
	}
	const { kind, action, ground } = parsed.data
	if (!ACTIONS_BY_KIND[kind].includes(action)) return { ok: false, error: 'error-invalid-decision' }
	const noMeasure = NO_MEASURE.includes(action)
	if (noMeasure && ground !== 'none') return { ok: false, error: 'operator.ground-none' }
	if (!noMeasure && ground === 'none') return { ok: false, error: 'operator.ground-needed' }
	return { ok: true, value: parsed.data }
}

/** The appeal form: the user's statement, 1 to 2,000 characters. */
export function parseAppeal(formData: FormData): { ok: true; statement: string } | { ok: false; error: 'error-appeal-statement-required' | 'error-appeal-statement-too-long' } {
	const statement = String(formData.get('statement') ?? '').trim()
	if (statement === '') return { ok: false, error: 'error-appeal-statement-required' }
	if (statement.length > MODERATION_LIMITS.statement) return { ok: false, error: 'error-appeal-statement-too-long' }
	return { ok: true, statement }
}
