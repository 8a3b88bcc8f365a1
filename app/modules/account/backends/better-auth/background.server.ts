import type { AuthLogger } from '#app/modules/account/limits.server'

/**
 * Work that must not hold up the response: account mails above all. Sign-up,
 * resend and password reset answer the same whether the address has an
 * account or not; if the answer waited for the SMTP server only when a mail
 * goes out, its timing would tell. So mails go out after the answer, and a
 * failure is logged (it cannot be reported to the requester without saying
 * the account exists).
 *
 * `settled()` lets tests and a graceful shutdown wait for what is in flight.
 */
export class BackgroundTasks {
	readonly #pending = new Set<Promise<unknown>>()
	readonly #log: AuthLogger

	constructor(log: AuthLogger) {
		this.#log = log
	}

	run(task: Promise<unknown> | (() => Promise<unknown>), description = 'background task'): void {
		const promise = (typeof task === 'function' ? Promise.resolve().then(task) : task).catch((error: unknown) => {
			this.#log('error', `${description} failed`, error)
		})
		this.#pending.add(promise)
		void promise.finally(() => this.#pending.delete(promise))
	}

	async settled(): Promise<void> {
		while (this.#pending.size > 0) await Promise.allSettled([...this.#pending])
	}
}
