/**
 * The browser's data requests retry on these statuses (docs/product.md §15.3).
 * Only requests that are safe to repeat go through here: reads, and money
 * forms, which carry an idempotency key so a repeat moves nothing twice.
 */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504])

export interface RetryOptions {
	/** Attempts after the first (default 3). */
	retries?: number
	/** First wait; doubles each time, with jitter (default 300 ms). */
	baseDelayMs?: number
	/** Waits are capped here (default 4 s). */
	maxDelayMs?: number
	sleep?: (ms: number) => Promise<void>
}

function defaultSleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms))
}

/** How long to wait before attempt `attempt` (1-based), honouring Retry-After in seconds. */
export function retryDelay(attempt: number, response: Response | null, options: RetryOptions = {}): number {
	const base = options.baseDelayMs ?? 300
	const max = options.maxDelayMs ?? 4000
	const retryAfter = Number(response?.headers.get('retry-after'))
	if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.min(retryAfter * 1000, max)
	const exponential = Math.min(base * 2 ** (attempt - 1), max)
	return exponential / 2 + Math.random() * (exponential / 2)
}

/**
 * fetch, repeated with backoff while the answer is one of RETRY_STATUSES or
 * the network failed (the request may have arrived: only for idempotent
 * requests). The body must be repeatable (FormData, string, URLSearchParams),
 * never a stream. Returns the last response; rethrows the last network error.
 */
export async function fetchWithRetry(input: string | URL, init: RequestInit = {}, options: RetryOptions = {}): Promise<Response> {
	const retries = options.retries ?? 3
	const sleep = options.sleep ?? defaultSleep
	for (let attempt = 0; ; attempt++) {
		let response: Response | null = null
		try {
			response = await fetch(input, init)
			if (!RETRY_STATUSES.has(response.status) || attempt >= retries) return response
		} catch (error) {
			if (init.signal?.aborted || attempt >= retries) throw error
		}
		await sleep(retryDelay(attempt + 1, response, options))
	}
}
