export interface StripeConnectStandIn {
	/** The stand-in's origin (STRIPE_API_URL). */
	url: string
	secretKey: string
	webhookSecret: string
	accountsWebhookSecret: string
	/** The app's environment variables that point its Stripe SDK here. */
	env: Record<'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_ACCOUNTS_WEBHOOK_SECRET' | 'STRIPE_API_URL', string>
	/** The v2 accounts it made, by id (every part, whatever was included). */
	accounts: Map<string, Record<string, unknown> & { id: string }>
	/** The transfers it made, by id. */
	transfers: Map<string, Record<string, unknown> & { id: string; amount: number; currency: string; destination: string; transfer_group: string | null }>
	/** Every request it received, in order. */
	requests: Array<{ method: string; path: string; query: string; idempotencyKey: string | null; body: unknown }>
	/** The platform's available balance per currency (minor units). */
	available: Record<string, number>
	completeOnboarding(accountId: string): void
	restrict(accountId: string, code: string, due?: string[]): void
	reverse(transferId: string): Record<string, unknown> & { id: string }
	outage(pathPrefix: string, times?: number): void
	snapshotEvent(type: string, object: unknown): { payload: string; signature: string }
	thinAccountEvent(type: string, accountId: string, secret?: string): { payload: string; signature: string }
	/** Forgets everything (accounts, transfers, keys, requests, outages) and refills the balance. */
	reset(): void
	close(): Promise<void>
}

export function startStripeConnect(options?: {
	secretKey?: string
	webhookSecret?: string
	accountsWebhookSecret?: string
	balance?: Record<string, number>
}): Promise<StripeConnectStandIn>
