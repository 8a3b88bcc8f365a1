import { z } from '#app/utils/zod'

export const PLATFORMS = ['twitch', 'youtube', 'kick'] as const
export type StreamPlatform = (typeof PLATFORMS)[number]

export function isPlatform(value: unknown): value is StreamPlatform {
	return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value)
}

/**
 * The start-session settings (docs/product.md §5.2; the upper limits are ADR 018).
 * create_session checks the same limits again in SQL; these explain a
 * mistake before the round trip, give the number fields their min, max and
 * step, and the page its HTML constraints without JavaScript.
 */
export const SESSION_LIMITS = {
	title: { min: 1, max: 140 },
	maxDaresPerUser: { min: 1, max: 100, step: 1, default: 5 },
	maxFreeDaresPerUser: { min: 0, max: 100, step: 1, default: 1 },
	minBoost: { min: 50, max: 100_000, step: 10, default: 200 },
	votingDuration: { min: 30, max: 3600, step: 5, default: 180 },
} as const

type NumberLimit = { min: number; max: number; step: number }

function whole(limit: NumberLimit, key: string) {
	return z
		.number({ error: `validation.${key}-required` })
		.int({ error: `validation.${key}-step` })
		.min(limit.min, { error: `validation.${key}-min` })
		.max(limit.max, { error: `validation.${key}-max` })
		.multipleOf(limit.step, { error: `validation.${key}-step` })
}

/**
 * The hidden field of a form that shows the creator-agreement box: the
 * acceptance is then required of the form (the database requires the
 * agreement itself either way: error-creator-agreement-required).
 */
export const AGREEMENT_ASKED = 'agreementAsked'

const DaresPerViewer = z.object({
	maxDaresPerUser: whole(SESSION_LIMITS.maxDaresPerUser, 'max-dares'),
	maxFreeDaresPerUser: whole(SESSION_LIMITS.maxFreeDaresPerUser, 'max-free-dares'),
})

const AgreementAnswer = z.object({ acceptAgreement: z.literal('accept').optional(), [AGREEMENT_ASKED]: z.literal('yes').optional() })

export const StartSessionSchema = z
	.object({
		title: z
			.string({ error: 'validation.title-required' })
			.trim()
			.min(SESSION_LIMITS.title.min, { error: 'validation.title-required' })
			.max(SESSION_LIMITS.title.max, { error: 'validation.title-too-long' }),
		platform: z.enum(PLATFORMS, { error: 'validation.platform-required' }),
		...DaresPerViewer.shape,
		minBoost: whole(SESSION_LIMITS.minBoost, 'min-boost'),
		votingDuration: whole(SESSION_LIMITS.votingDuration, 'voting-duration'),
		/** Set when the creator accepts the creator agreement on the way (the form's box). */
		acceptAgreement: z.literal('accept').optional(),
		[AGREEMENT_ASKED]: z.literal('yes').optional(),
	})
	// Each rule across fields runs whenever its own fields are valid, whatever the others hold
	// (by default Zod skips a refinement while any field is missing, an empty title included).
	.refine((v) => v.maxFreeDaresPerUser <= v.maxDaresPerUser, {
		path: ['maxFreeDaresPerUser'],
		error: 'validation.max-free-dares-above-max',
		when: ({ value }) => DaresPerViewer.safeParse(value).success,
	})
	.refine((v) => v[AGREEMENT_ASKED] !== 'yes' || v.acceptAgreement === 'accept', {
		path: ['acceptAgreement'],
		error: 'error-creator-agreement-required',
		when: ({ value }) => AgreementAnswer.safeParse(value).success,
	})

export type StartSessionInput = z.infer<typeof StartSessionSchema>

export const UnlinkChannelSchema = z.object({ platform: z.enum(PLATFORMS) })
