/**
 * The dares' limits (docs/product.md §7.3); the database checks the same
 * numbers again (tests/sql/limits.test.ts holds them equal).
 * Without Zod, so the session page's forms take their limits without
 * loading it (schemas.ts builds the action's schema from these).
 */
export const DARE_LIMITS = {
	description: { min: 3, max: 280 },
	boost: { min: 10, step: 10, max: 1_000_000, default: 200 },
	reward: { min: 0, step: 10, max: 1_000_000 },
} as const


/** The reasons a dare can be reported for (app_private.reports.reason). */
export const REPORT_REASONS = ['hate', 'harassment', 'sexual', 'violence', 'illegal', 'spam', 'other'] as const
export type ReportReason = (typeof REPORT_REASONS)[number]

/** The report form's limits, as app_private.take_report checks them. */
export const REPORT_LIMITS = { details: 1000, name: 100, email: 254 } as const
