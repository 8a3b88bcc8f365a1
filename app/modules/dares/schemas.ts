import { z } from '#app/utils/zod'
import { IDEMPOTENCY_KEY } from '#app/utils/idempotency-key'
import { DARE_LIMITS, REPORT_LIMITS, REPORT_REASONS } from './limits'
import { VOTE_EXTENSION } from '#app/modules/sessions/creator-view-limits'

export { DARE_LIMITS, REPORT_LIMITS, REPORT_REASONS }

const key = z.string().regex(IDEMPOTENCY_KEY)
/** A dare's id, as every dare form carries it. */
export const DareIdSchema = z.uuid()
const dareId = DareIdSchema
const coins = (min: number, step: number, max: number) => z.coerce.number().int().min(min).max(max).multipleOf(step)

/** Every form of the dares panel, told apart by its submit button's intent. */
export const DareActionSchema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('create'),
		sessionId: z.uuid(),
		description: z.string().trim().min(DARE_LIMITS.description.min).max(DARE_LIMITS.description.max),
		reward: coins(DARE_LIMITS.reward.min, DARE_LIMITS.reward.step, DARE_LIMITS.reward.max),
		key,
	}),
	z.object({ intent: z.literal('boost'), dareId, amount: coins(DARE_LIMITS.boost.min, DARE_LIMITS.boost.step, DARE_LIMITS.boost.max), key }),
	z.object({ intent: z.literal('vote'), dareId, vote: z.enum(['yes', 'no']) }),
	// Rejecting refunds the dare's boosts: a money call, with its key.
	z.object({ intent: z.literal('reject'), dareId, key }),
	z.object({ intent: z.enum(['accept', 'start-voting']), dareId }),
	// The creator's running vote (docs/product.md §6.7): more time, or called off.
	z.object({
		intent: z.literal('extend-vote'),
		dareId,
		seconds: z.coerce.number().int().min(VOTE_EXTENSION.min).max(VOTE_EXTENSION.max).multipleOf(VOTE_EXTENSION.step),
	}),
	z.object({ intent: z.literal('cancel-vote'), dareId }),
])
export type DareAction = z.infer<typeof DareActionSchema>

/**
 * The moderation forms of a session page (docs/product.md §13): the
 * creator's approve, hide, ban and "hold every new dare" switch, and
 * anyone's report. A visitor's report also names them (name, e-mail: the
 * action requires both when nobody is signed in). Rejecting a held dare is
 * DareActionSchema's reject.
 */
export const ModerationActionSchema = z.discriminatedUnion('intent', [
	z.object({ intent: z.enum(['approve', 'hide']), dareId }),
	z.object({ intent: z.literal('ban'), userId: z.uuid(), dareId: dareId.optional() }),
	z.object({ intent: z.literal('hold'), sessionId: z.uuid(), hold: z.enum(['on', 'off']) }),
	z.object({
		intent: z.literal('report'),
		dareId,
		reason: z.enum(REPORT_REASONS),
		details: z.string().trim().min(1).max(REPORT_LIMITS.details),
		name: z.string().trim().min(1).max(REPORT_LIMITS.name).optional(),
		email: z.email().max(REPORT_LIMITS.email).optional(),
		goodFaith: z.literal('yes'),
	}),
])
export type ModerationAction = z.infer<typeof ModerationActionSchema>
export const MODERATION_INTENTS: ReadonlySet<string> = new Set(['approve', 'hide', 'ban', 'hold', 'report'])
