import type { Queryable } from '#app/db/database.server'
import { isLocale, LOCALES, type Locale } from '#app/i18n/locales'
import type { RenderedMail } from '#app/mail/templates.server'
import type { MailAdapter } from '#app/platform/types'
import type { PayoutDecision } from '#app/modules/payouts/schemas'
import { formatCoins, formatPrice } from '#app/modules/shop/format'
import { APPEALABLE, type DecisionAction, type Ground } from './decision-schemas'

/**
 * The mails an operator's decision sends (docs/product.md §13.3, DSA Art. 16
 * and 17): the statement of reasons to the user a decision affects (what was
 * decided, about which dare, why, which rule of the terms, whether automated
 * means were used, how to appeal and where else to turn); the outcome of an
 * appeal to the user who made it; and the outcome of a report to everyone
 * whose report the decision closed (Art. 16(5)). Written natively in the
 * four languages, in the register of the app and of app/mail/templates.server.ts
 * (du, tú, sen); the rules cited are the sections of content/legal/terms.*.md
 * (6 content rules, 7 automatic checks, 9 reports, 10 our decisions, 11
 * statement of reasons and appeal). A payout an operator rejects
 * (docs/product.md §14) is money withheld: its creator gets a statement of
 * reasons too.
 */

/** A decision as the mails tell it: app_private.moderation_decisions, and for an appeal decision the decision appealed. */
export interface DecisionRecord {
	id: string
	action: DecisionAction | PayoutDecision
	ground: Ground
	explanation: string
	dareDescription: string | null
	automatedDetection: boolean
	createdAt: Date
	/** Whether a report brought the content to the operators' attention. */
	reported: boolean
	appealed: { action: DecisionAction; createdAt: Date } | null
	/** The payout an approve_payout or reject_payout decided (none for other decisions). */
	payout?: { coins: number; amountMinor: number; currency: string; requestedAt: Date } | null
}

type Measure = 'remove_dare' | 'suspend_user' | 'restrict_payouts'
/** What an appeal may be about (app_private.appealable): the measures, and a rejected payout (docs/product.md §14.4). */
type Appealed = Measure | 'reject_payout'
type Rule = Exclude<Ground, 'none'>

interface DecisionMailStrings {
	statement: Record<Measure, { subject: string; body: (date: string) => string; dare: string }>
	why: string
	rule: string
	ruleText: (label: string) => string
	grounds: Record<Rule, string>
	found: string
	foundFilter: string
	foundReport: string
	foundOther: string
	appeal: string
	appealText: string
	appealAction: string
	otherWays: string
	otherWaysText: string
	statementFooter: string
	/** The measure appealed against, as a phrase inside the appeal outcome's first sentence. */
	appealedWhat: Record<Appealed, string>
	granted: { subject: string; body: (date: string, what: string) => string; lifted: Record<Appealed, string> }
	upheld: { subject: string; body: (date: string, what: string) => string }
	appealByPerson: string
	theDare: string
	report: {
		subject: string
		heading: string
		body: (dare: string, date: string) => string
		outcome: Record<Measure, (label: string) => string>
		dismissed: string
		byPerson: string
		redress: string
		footer: string
	}
	terms: string
	'link-fallback': string
	/** The statement of reasons of a rejected payout. */
	payoutRejected: { subject: string; body: (requested: string, decided: string, coins: string, money: string) => string; found: string }
}

const STRINGS: Record<Locale, DecisionMailStrings> = {
	en: {
		statement: {
			remove_dare: {
				subject: 'We removed your dare',
				body: (date) => `On ${date} our moderators removed your dare from Dareboost. If it was not settled yet, its boosts went back to the people who boosted it.`,
				dare: 'Your dare',
			},
			suspend_user: {
				subject: 'We suspended your Dareboost account',
				body: (date) => `On ${date} our moderators suspended your account: you can no longer write dares, boost, vote or run sessions.`,
				dare: 'The dare it concerns',
			},
			restrict_payouts: {
				subject: 'We restricted your payouts',
				body: (date) => `On ${date} our moderators restricted your account's payouts: nothing is paid out to you while the restriction lasts.`,
				dare: 'The dare it concerns',
			},
		},
		why: 'Why we decided this',
		rule: 'Which rule',
		ruleText: (label) => `Section 6 of our terms (content rules): ${label}. Section 10 says what we do when a rule is broken.`,
		grounds: {
			hate: 'hate',
			harassment: 'harassment',
			sexual: 'sexual content',
			violence: 'violence or danger',
			illegal: 'illegal content',
			spam: 'spam',
			other: 'another breach of these rules',
		},
		found: 'Automated means',
		foundFilter: 'Our automatic filter held this dare for review (automated detection, section 7 of our terms). The decision itself was taken by a person, not by automated means.',
		foundReport: 'Someone reported this to us (section 9 of our terms). No automated means were used to find it, and the decision was taken by a person.',
		foundOther: 'Our moderators came across this themselves. No automated means were used, and the decision was taken by a person.',
		appeal: 'How to appeal',
		appealText: 'You can appeal this decision once, within six months of it, through the link below. A person reviews your appeal, and we write to you with the result (section 11 of our terms).',
		appealAction: 'Appeal this decision',
		otherWays: 'Other ways',
		otherWaysText:
			'Whether or not you appeal, you can turn to an out-of-court dispute settlement body certified under Art. 21 of the Digital Services Act (the European Commission publishes a list of these bodies), and you can always go to court.',
		statementFooter: 'You are receiving this e-mail because of a decision about your Dareboost account.',
		appealedWhat: {
			remove_dare: 'removing your dare',
			suspend_user: 'suspending your account',
			restrict_payouts: 'restricting your payouts',
			reject_payout: 'not sending your payout',
		},
		granted: {
			subject: 'Your appeal was successful',
			body: (date, what) => `We reviewed your appeal against our decision of ${date} (${what}) and decided in your favour.`,
			lifted: {
				remove_dare: 'A removed dare is not put back: its boosts had already gone back to the people who boosted it (section 11 of our terms).',
				suspend_user: 'Your account is no longer suspended: you can write dares, boost, vote and run sessions again.',
				restrict_payouts: 'Your payouts are no longer restricted.',
				reject_payout: 'The coins went back to your wallet when the payout was rejected: you can request the payout again on your earnings page.',
			},
		},
		upheld: {
			subject: 'Your appeal: our decision stands',
			body: (date, what) => `We reviewed your appeal against our decision of ${date} (${what}), and the decision stands.`,
		},
		appealByPerson: 'A person reviewed your appeal; it was not decided by automated means.',
		theDare: 'The dare',
		report: {
			subject: 'The outcome of your report',
			heading: 'We decided on your report',
			body: (dare, date) => `Thank you for reporting the dare “${dare}”. Our moderators reviewed your report on ${date}.`,
			outcome: {
				remove_dare: (label) => `We removed the dare: it breaks section 6 of our terms (${label}).`,
				suspend_user: (label) => `We suspended the account of the person who wrote the dare: it breaks section 6 of our terms (${label}).`,
				restrict_payouts: (label) => `We restricted the payouts of the person who wrote the dare: it breaks section 6 of our terms (${label}).`,
			},
			dismissed: 'We did not find that the dare is illegal or against our terms, so it stays. Our reasons:',
			byPerson: 'A person decided on your report, not an automated system.',
			redress:
				'If you disagree, you can turn to an out-of-court dispute settlement body certified under Art. 21 of the Digital Services Act (the European Commission publishes a list of these bodies), and you can always go to court.',
			footer: 'You are receiving this e-mail because you reported a dare on Dareboost.',
		},
		terms: 'Read the terms',
		'link-fallback': 'If the button does not work, copy this link into your browser:',
		payoutRejected: {
			subject: 'We did not send your payout',
			body: (requested, decided, coins, money) =>
				`On ${decided} our team reviewed your payout of ${coins} coins (${money}), requested on ${requested}, and did not send it. The coins are back in your wallet, available for a later payout.`,
			found: 'Our team checks every creator’s first payout and every large one before it is sent. The decision was taken by a person, not by automated means.',
		},
	},
	de: {
		statement: {
			remove_dare: {
				subject: 'Wir haben dein Dare entfernt',
				body: (date) => `Am ${date} hat unsere Moderation dein Dare von Dareboost entfernt. War es noch nicht abgeschlossen, haben alle, die es geboostet haben, ihre Coins zurückbekommen.`,
				dare: 'Dein Dare',
			},
			suspend_user: {
				subject: 'Wir haben dein Dareboost-Konto gesperrt',
				body: (date) => `Am ${date} hat unsere Moderation dein Konto gesperrt: Du kannst keine Dares mehr schreiben, boosten, abstimmen oder Sessions starten.`,
				dare: 'Das betroffene Dare',
			},
			restrict_payouts: {
				subject: 'Wir haben deine Auszahlungen eingeschränkt',
				body: (date) => `Am ${date} hat unsere Moderation die Auszahlungen deines Kontos eingeschränkt: Solange die Einschränkung gilt, zahlen wir dir nichts aus.`,
				dare: 'Das betroffene Dare',
			},
		},
		why: 'Warum wir so entschieden haben',
		rule: 'Welche Regel',
		ruleText: (label) => `Abschnitt 6 unserer Nutzungsbedingungen (Regeln für Inhalte): ${label}. Abschnitt 10 beschreibt, was wir tun, wenn eine Regel verletzt wird.`,
		grounds: {
			hate: 'Hass',
			harassment: 'Belästigung',
			sexual: 'sexuelle Inhalte',
			violence: 'Gewalt oder Gefahr',
			illegal: 'rechtswidrige Inhalte',
			spam: 'Spam',
			other: 'ein anderer Verstoß gegen diese Regeln',
		},
		found: 'Automatisierte Mittel',
		foundFilter:
			'Unser automatischer Filter hat dieses Dare zur Prüfung zurückgehalten (automatisierte Erkennung, Abschnitt 7 unserer Nutzungsbedingungen). Die Entscheidung selbst hat ein Mensch getroffen, kein automatisiertes Verfahren.',
		foundReport:
			'Jemand hat uns das gemeldet (Abschnitt 9 unserer Nutzungsbedingungen). Um es zu finden, wurden keine automatisierten Mittel eingesetzt, und die Entscheidung hat ein Mensch getroffen.',
		foundOther: 'Unsere Moderation ist selbst darauf gestoßen. Es wurden keine automatisierten Mittel eingesetzt, und die Entscheidung hat ein Mensch getroffen.',
		appeal: 'So legst du Einspruch ein',
		appealText:
			'Du kannst gegen diese Entscheidung einmal Einspruch einlegen, innerhalb von sechs Monaten, über den Link unten. Ein Mensch prüft deinen Einspruch, und wir schreiben dir das Ergebnis (Abschnitt 11 unserer Nutzungsbedingungen).',
		appealAction: 'Einspruch einlegen',
		otherWays: 'Weitere Wege',
		otherWaysText:
			'Ob du Einspruch einlegst oder nicht: Du kannst dich an eine nach Art. 21 des Digital Services Act zertifizierte außergerichtliche Streitbeilegungsstelle wenden (die Europäische Kommission veröffentlicht eine Liste dieser Stellen), und der Weg zu den Gerichten steht dir immer offen.',
		statementFooter: 'Du erhältst diese E-Mail wegen einer Entscheidung zu deinem Dareboost-Konto.',
		appealedWhat: {
			remove_dare: 'dein Dare zu entfernen',
			suspend_user: 'dein Konto zu sperren',
			restrict_payouts: 'deine Auszahlungen einzuschränken',
			reject_payout: 'deine Auszahlung nicht zu senden',
		},
		granted: {
			subject: 'Dein Einspruch hatte Erfolg',
			body: (date, what) => `Wir haben deinen Einspruch gegen unsere Entscheidung vom ${date} (${what}) geprüft und zu deinen Gunsten entschieden.`,
			lifted: {
				remove_dare: 'Ein entferntes Dare wird nicht wiederhergestellt: Seine Coins sind schon an alle zurückgegangen, die es geboostet haben (Abschnitt 11 unserer Nutzungsbedingungen).',
				suspend_user: 'Dein Konto ist nicht mehr gesperrt: Du kannst wieder Dares schreiben, boosten, abstimmen und Sessions starten.',
				restrict_payouts: 'Deine Auszahlungen sind nicht mehr eingeschränkt.',
				reject_payout: 'Die Coins sind schon bei der Ablehnung in dein Wallet zurückgegangen: Du kannst die Auszahlung auf deiner Einnahmen-Seite erneut anfordern.',
			},
		},
		upheld: {
			subject: 'Dein Einspruch: Unsere Entscheidung bleibt bestehen',
			body: (date, what) => `Wir haben deinen Einspruch gegen unsere Entscheidung vom ${date} (${what}) geprüft: Die Entscheidung bleibt bestehen.`,
		},
		appealByPerson: 'Deinen Einspruch hat ein Mensch geprüft; er wurde nicht automatisiert entschieden.',
		theDare: 'Das Dare',
		report: {
			subject: 'Das Ergebnis deiner Meldung',
			heading: 'Wir haben über deine Meldung entschieden',
			body: (dare, date) => `Danke, dass du das Dare „${dare}“ gemeldet hast. Unsere Moderation hat deine Meldung am ${date} geprüft.`,
			outcome: {
				remove_dare: (label) => `Wir haben das Dare entfernt: Es verstößt gegen Abschnitt 6 unserer Nutzungsbedingungen (${label}).`,
				suspend_user: (label) => `Wir haben das Konto der Person gesperrt, die das Dare geschrieben hat: Es verstößt gegen Abschnitt 6 unserer Nutzungsbedingungen (${label}).`,
				restrict_payouts: (label) =>
					`Wir haben die Auszahlungen der Person eingeschränkt, die das Dare geschrieben hat: Es verstößt gegen Abschnitt 6 unserer Nutzungsbedingungen (${label}).`,
			},
			dismissed: 'Wir sind nicht zu dem Schluss gekommen, dass das Dare rechtswidrig ist oder gegen unsere Nutzungsbedingungen verstößt; es bleibt deshalb stehen. Unsere Gründe:',
			byPerson: 'Über deine Meldung hat ein Mensch entschieden, kein automatisiertes Verfahren.',
			redress:
				'Wenn du anderer Meinung bist, kannst du dich an eine nach Art. 21 des Digital Services Act zertifizierte außergerichtliche Streitbeilegungsstelle wenden (die Europäische Kommission veröffentlicht eine Liste dieser Stellen), und der Weg zu den Gerichten steht dir immer offen.',
			footer: 'Du erhältst diese E-Mail, weil du auf Dareboost ein Dare gemeldet hast.',
		},
		terms: 'Nutzungsbedingungen lesen',
		'link-fallback': 'Falls der Button nicht funktioniert, kopiere diesen Link in deinen Browser:',
		payoutRejected: {
			subject: 'Wir haben deine Auszahlung nicht überwiesen',
			body: (requested, decided, coins, money) =>
				`Am ${decided} hat unser Team deine Auszahlung von ${coins} Coins (${money}) vom ${requested} geprüft und nicht überwiesen. Die Coins sind wieder in deiner Wallet und stehen für eine spätere Auszahlung bereit.`,
			found: 'Unser Team prüft die erste Auszahlung jedes Creators und jede große Auszahlung, bevor sie rausgeht. Die Entscheidung hat ein Mensch getroffen, kein automatisiertes Verfahren.',
		},
	},
	es: {
		statement: {
			remove_dare: {
				subject: 'Hemos retirado tu reto',
				body: (date) => `El ${date}, nuestro equipo de moderación retiró tu reto de Dareboost. Si aún no estaba resuelto, los impulsos volvieron a quienes lo impulsaron.`,
				dare: 'Tu reto',
			},
			suspend_user: {
				subject: 'Hemos suspendido tu cuenta de Dareboost',
				body: (date) => `El ${date}, nuestro equipo de moderación suspendió tu cuenta: ya no puedes escribir retos, impulsar, votar ni iniciar sesiones en directo.`,
				dare: 'El reto afectado',
			},
			restrict_payouts: {
				subject: 'Hemos restringido tus pagos',
				body: (date) => `El ${date}, nuestro equipo de moderación restringió los pagos de tu cuenta: mientras dure la restricción, no te pagamos nada.`,
				dare: 'El reto afectado',
			},
		},
		why: 'Por qué lo hemos decidido',
		rule: 'Qué norma',
		ruleText: (label) => `Sección 6 de nuestras condiciones (normas de contenido): ${label}. La sección 10 explica qué hacemos cuando se incumple una norma.`,
		grounds: {
			hate: 'odio',
			harassment: 'acoso',
			sexual: 'contenido sexual',
			violence: 'violencia o peligro',
			illegal: 'contenido ilegal',
			spam: 'spam',
			other: 'otro incumplimiento de estas normas',
		},
		found: 'Medios automatizados',
		foundFilter:
			'Nuestro filtro automático retuvo este reto para revisarlo (detección automatizada, sección 7 de nuestras condiciones). La decisión la tomó una persona, no un sistema automatizado.',
		foundReport: 'Alguien nos lo denunció (sección 9 de nuestras condiciones). No se usaron medios automatizados para detectarlo y la decisión la tomó una persona.',
		foundOther: 'Lo encontró nuestro propio equipo de moderación. No se usaron medios automatizados y la decisión la tomó una persona.',
		appeal: 'Cómo reclamar',
		appealText:
			'Puedes reclamar una vez contra esta decisión, en un plazo de seis meses, con el enlace de abajo. Una persona revisa tu reclamación y te escribimos con el resultado (sección 11 de nuestras condiciones).',
		appealAction: 'Reclamar esta decisión',
		otherWays: 'Otras vías',
		otherWaysText:
			'Reclames o no, puedes acudir a un órgano de resolución extrajudicial de litigios certificado conforme al art. 21 de la Ley de Servicios Digitales (la Comisión Europea publica una lista de estos órganos), y siempre te queda la vía judicial.',
		statementFooter: 'Recibes este correo por una decisión sobre tu cuenta de Dareboost.',
		appealedWhat: {
			remove_dare: 'retirar tu reto',
			suspend_user: 'suspender tu cuenta',
			restrict_payouts: 'restringir tus pagos',
			reject_payout: 'no enviar tu pago',
		},
		granted: {
			subject: 'Tu reclamación ha prosperado',
			body: (date, what) => `Hemos revisado tu reclamación contra nuestra decisión del ${date} (${what}) y la hemos resuelto a tu favor.`,
			lifted: {
				remove_dare: 'Un reto retirado no se vuelve a publicar: sus impulsos ya volvieron a quienes lo impulsaron (sección 11 de nuestras condiciones).',
				suspend_user: 'Tu cuenta ya no está suspendida: puedes volver a escribir retos, impulsar, votar e iniciar sesiones en directo.',
				restrict_payouts: 'Tus pagos ya no están restringidos.',
				reject_payout: 'Las monedas volvieron a tu monedero cuando se rechazó el pago: puedes volver a solicitarlo en tu página de ganancias.',
			},
		},
		upheld: {
			subject: 'Tu reclamación: mantenemos nuestra decisión',
			body: (date, what) => `Hemos revisado tu reclamación contra nuestra decisión del ${date} (${what}) y la decisión se mantiene.`,
		},
		appealByPerson: 'Tu reclamación la revisó una persona; no se resolvió por medios automatizados.',
		theDare: 'El reto',
		report: {
			subject: 'El resultado de tu denuncia',
			heading: 'Hemos decidido sobre tu denuncia',
			body: (dare, date) => `Gracias por denunciar el reto «${dare}». Nuestro equipo de moderación revisó tu denuncia el ${date}.`,
			outcome: {
				remove_dare: (label) => `Hemos retirado el reto: incumple la sección 6 de nuestras condiciones (${label}).`,
				suspend_user: (label) => `Hemos suspendido la cuenta de quien escribió el reto: incumple la sección 6 de nuestras condiciones (${label}).`,
				restrict_payouts: (label) => `Hemos restringido los pagos de quien escribió el reto: incumple la sección 6 de nuestras condiciones (${label}).`,
			},
			dismissed: 'No hemos concluido que el reto sea ilegal ni que incumpla nuestras condiciones, así que se queda. Nuestros motivos:',
			byPerson: 'Sobre tu denuncia decidió una persona, no un sistema automatizado.',
			redress:
				'Si no estás de acuerdo, puedes acudir a un órgano de resolución extrajudicial de litigios certificado conforme al art. 21 de la Ley de Servicios Digitales (la Comisión Europea publica una lista de estos órganos), y siempre te queda la vía judicial.',
			footer: 'Recibes este correo porque denunciaste un reto en Dareboost.',
		},
		terms: 'Leer las condiciones',
		'link-fallback': 'Si el botón no funciona, copia este enlace en tu navegador:',
		payoutRejected: {
			subject: 'No hemos enviado tu pago',
			body: (requested, decided, coins, money) =>
				`El ${decided}, nuestro equipo revisó tu pago de ${coins} monedas (${money}), solicitado el ${requested}, y no lo envió. Las monedas han vuelto a tu monedero y están disponibles para un pago posterior.`,
			found: 'Nuestro equipo revisa el primer pago de cada creador y todos los pagos grandes antes de enviarlos. La decisión la tomó una persona, no un sistema automatizado.',
		},
	},
	tr: {
		statement: {
			remove_dare: {
				subject: 'Meydan okumanı kaldırdık',
				body: (date) => `${date} tarihinde moderasyon ekibimiz meydan okumanı Dareboost’tan kaldırdı. Henüz sonuçlanmamışsa, onu destekleyenlerin jetonları kendilerine geri döndü.`,
				dare: 'Meydan okuman',
			},
			suspend_user: {
				subject: 'Dareboost hesabını askıya aldık',
				body: (date) => `${date} tarihinde moderasyon ekibimiz hesabını askıya aldı: Artık meydan okuma yazamaz, destekleyemez, oy veremez ve canlı oturum başlatamazsın.`,
				dare: 'İlgili meydan okuma',
			},
			restrict_payouts: {
				subject: 'Ödemelerini kısıtladık',
				body: (date) => `${date} tarihinde moderasyon ekibimiz hesabının ödemelerini kısıtladı: Kısıtlama sürdükçe sana ödeme yapılmaz.`,
				dare: 'İlgili meydan okuma',
			},
		},
		why: 'Neden bu kararı verdik',
		rule: 'Hangi kural',
		ruleText: (label) => `Kullanım koşullarımızın 6. bölümü (içerik kuralları): ${label}. 10. bölüm, bir kural çiğnendiğinde ne yaptığımızı anlatır.`,
		grounds: {
			hate: 'nefret',
			harassment: 'taciz',
			sexual: 'cinsel içerik',
			violence: 'şiddet veya tehlike',
			illegal: 'yasa dışı içerik',
			spam: 'spam',
			other: 'bu kuralların başka bir ihlali',
		},
		found: 'Otomatik araçlar',
		foundFilter:
			'Otomatik filtremiz bu meydan okumayı incelemeye aldı (otomatik tespit, kullanım koşullarımızın 7. bölümü). Kararın kendisini otomatik bir sistem değil, bir insan verdi.',
		foundReport: 'Biri bunu bize bildirdi (kullanım koşullarımızın 9. bölümü). Tespit için otomatik araçlar kullanılmadı ve kararı bir insan verdi.',
		foundOther: 'Moderasyon ekibimiz bunu kendisi fark etti. Otomatik araçlar kullanılmadı ve kararı bir insan verdi.',
		appeal: 'Nasıl itiraz edersin',
		appealText:
			'Bu karara, aşağıdaki bağlantıdan altı ay içinde bir kez itiraz edebilirsin. İtirazını bir insan inceler ve sonucu sana yazarız (kullanım koşullarımızın 11. bölümü).',
		appealAction: 'Karara itiraz et',
		otherWays: 'Diğer yollar',
		otherWaysText:
			'İtiraz etsen de etmesen de Dijital Hizmetler Yasası’nın (DSA) 21. maddesi uyarınca sertifikalandırılmış bir mahkeme dışı uyuşmazlık çözüm kuruluşuna başvurabilirsin (Avrupa Komisyonu bu kuruluşların listesini yayımlar); mahkemeye başvurma hakkın da her zaman saklıdır.',
		statementFooter: 'Bu e-postayı Dareboost hesabınla ilgili bir karar nedeniyle alıyorsun.',
		appealedWhat: {
			remove_dare: 'meydan okumanın kaldırılması',
			suspend_user: 'hesabının askıya alınması',
			restrict_payouts: 'ödemelerinin kısıtlanması',
			reject_payout: 'ödemenin gönderilmemesi',
		},
		granted: {
			subject: 'İtirazın kabul edildi',
			body: (date, what) => `${date} tarihli kararımıza (${what}) yaptığın itirazı inceledik ve senin lehine karar verdik.`,
			lifted: {
				remove_dare: 'Kaldırılan bir meydan okuma geri getirilmez: Jetonları zaten onu destekleyenlere geri döndü (kullanım koşullarımızın 11. bölümü).',
				suspend_user: 'Hesabın artık askıda değil: Yeniden meydan okuma yazabilir, destekleyebilir, oy verebilir ve canlı oturum başlatabilirsin.',
				restrict_payouts: 'Ödemelerin artık kısıtlı değil.',
				reject_payout: 'Ödeme reddedildiğinde jetonlar cüzdanına geri döndü: Ödemeyi kazançlar sayfandan yeniden isteyebilirsin.',
			},
		},
		upheld: {
			subject: 'İtirazın: Kararımız geçerli',
			body: (date, what) => `${date} tarihli kararımıza (${what}) yaptığın itirazı inceledik: Karar geçerliliğini koruyor.`,
		},
		appealByPerson: 'İtirazını bir insan inceledi; otomatik araçlarla karara bağlanmadı.',
		theDare: 'Meydan okuma',
		report: {
			subject: 'Bildiriminin sonucu',
			heading: 'Bildirimin hakkında karar verdik',
			body: (dare, date) => `“${dare}” meydan okumasını bildirdiğin için teşekkürler. Moderasyon ekibimiz bildirimini ${date} tarihinde inceledi.`,
			outcome: {
				remove_dare: (label) => `Meydan okumayı kaldırdık: Kullanım koşullarımızın 6. bölümünü ihlal ediyor (${label}).`,
				suspend_user: (label) => `Meydan okumayı yazan kişinin hesabını askıya aldık: Meydan okuma, kullanım koşullarımızın 6. bölümünü ihlal ediyor (${label}).`,
				restrict_payouts: (label) => `Meydan okumayı yazan kişinin ödemelerini kısıtladık: Meydan okuma, kullanım koşullarımızın 6. bölümünü ihlal ediyor (${label}).`,
			},
			dismissed: 'Meydan okumanın yasa dışı olduğu ya da kullanım koşullarımızı ihlal ettiği sonucuna varmadık; bu yüzden yerinde kalıyor. Gerekçemiz:',
			byPerson: 'Bildirimin hakkında otomatik bir sistem değil, bir insan karar verdi.',
			redress:
				'Katılmıyorsan Dijital Hizmetler Yasası’nın (DSA) 21. maddesi uyarınca sertifikalandırılmış bir mahkeme dışı uyuşmazlık çözüm kuruluşuna başvurabilirsin (Avrupa Komisyonu bu kuruluşların listesini yayımlar); mahkemeye başvurma hakkın da her zaman saklıdır.',
			footer: 'Bu e-postayı Dareboost’ta bir meydan okumayı bildirdiğin için alıyorsun.',
		},
		terms: 'Kullanım koşullarını oku',
		'link-fallback': 'Düğme çalışmazsa bu bağlantıyı tarayıcına kopyala:',
		payoutRejected: {
			subject: 'Ödemeni göndermedik',
			body: (requested, decided, coins, money) =>
				`${decided} tarihinde ekibimiz, ${requested} tarihinde istediğin ${coins} jetonluk (${money}) ödemeni inceledi ve göndermedi. Jetonlar cüzdanına geri döndü; daha sonraki bir ödeme için kullanılabilir.`,
			found: 'Ekibimiz her yayıncının ilk ödemesini ve tüm büyük ödemeleri gönderilmeden önce kontrol eder. Kararı otomatik bir sistem değil, bir insan verdi.',
		},
	},
}

const isMeasure = (action: DecisionAction | PayoutDecision | undefined): action is Measure =>
	action !== undefined && action !== 'reject_payout' && (APPEALABLE as readonly string[]).includes(action)

const isAppealed = (action: DecisionAction | PayoutDecision | undefined): action is Appealed =>
	action !== undefined && (APPEALABLE as readonly string[]).includes(action)

function formatDate(locale: Locale, at: Date): string {
	const tag = LOCALES.find((l) => l.code === locale)!.language
	return new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }).format(at)
}

/** Where the affected user reads a decision and appeals it (app/routes/appeal.tsx). */
export function appealLink(appUrl: string, locale: Locale, decisionId: string): string {
	return `${appUrl.replace(/\/+$/, '')}/${locale}/appeal/${decisionId}`
}

function termsLink(appUrl: string, locale: Locale): string {
	return `${appUrl.replace(/\/+$/, '')}/${locale}/terms`
}

/** One part of a mail: a titled paragraph (title optional), as text and as HTML. */
type Part = { title?: string; text: string; quote?: boolean; link?: { url: string; label: string; button?: boolean } }

const QUOTES: Record<Locale, [string, string]> = { en: ['“', '”'], de: ['„', '“'], es: ['«', '»'], tr: ['“', '”'] }

function compose(locale: Locale, subject: string, parts: Part[], footer: string, fallback: string): RenderedMail {
	const [open, close] = QUOTES[locale]
	const text = [
		subject,
		'',
		...parts.flatMap((p) => [...(p.title ? [p.title] : []), p.quote ? `${open}${p.text}${close}` : p.text, ...(p.link ? [`${p.link.label}: ${p.link.url}`] : []), '']),
		'--',
		footer,
	].join('\n')
	const blocks = [`<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(subject)}</h1>`]
	for (const part of parts) {
		if (part.title) blocks.push(`<h2 style="font-size:16px;margin:20px 0 4px">${escapeHtml(part.title)}</h2>`)
		blocks.push(
			part.quote
				? `<blockquote style="margin:0 0 12px;padding:8px 12px;border-left:4px solid #7c3aed;background:#f5f5f7;white-space:pre-wrap">${escapeHtml(part.text)}</blockquote>`
				: `<p style="margin:0 0 12px;white-space:pre-line">${escapeHtml(part.text)}</p>`,
		)
		if (part.link?.button) {
			blocks.push(
				`<p style="margin:16px 0"><a href="${escapeHtml(part.link.url)}" style="background:#7c3aed;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block;font-weight:600">${escapeHtml(part.link.label)}</a></p>`,
				`<p style="color:#555555;font-size:13px">${escapeHtml(fallback)}<br><a href="${escapeHtml(part.link.url)}" style="color:#555555;word-break:break-all">${escapeHtml(part.link.url)}</a></p>`,
			)
		} else if (part.link) {
			blocks.push(`<p style="margin:0 0 12px"><a href="${escapeHtml(part.link.url)}" style="color:#7c3aed">${escapeHtml(part.link.label)}</a></p>`)
		}
	}
	return { subject, text, html: layout(locale, subject, blocks, footer) }
}

/** The statement of reasons to the user a removal, suspension or payout restriction affects. */
export function renderStatementOfReasons(decision: DecisionRecord, locale: Locale, appUrl: string): RenderedMail {
	const s = STRINGS[locale]
	if (!isMeasure(decision.action) || decision.ground === 'none') throw new Error(`no statement of reasons for ${decision.action}/${decision.ground}`)
	const what = s.statement[decision.action]
	const link = appealLink(appUrl, locale, decision.id)
	const parts: Part[] = [{ text: what.body(formatDate(locale, decision.createdAt)) }]
	if (decision.dareDescription) parts.push({ title: what.dare, text: decision.dareDescription, quote: true })
	parts.push(
		{ title: s.why, text: decision.explanation },
		{ title: s.rule, text: s.ruleText(s.grounds[decision.ground]), link: { url: termsLink(appUrl, locale), label: s.terms } },
		{ title: s.found, text: decision.automatedDetection ? s.foundFilter : decision.reported ? s.foundReport : s.foundOther },
		{ title: s.appeal, text: s.appealText, link: { url: link, label: s.appealAction, button: true } },
		{ title: s.otherWays, text: s.otherWaysText },
	)
	return compose(locale, what.subject, parts, s.statementFooter, s['link-fallback'])
}

/**
 * The statement of reasons to a creator whose payout an operator rejected:
 * which payout, that its coins are back, why, which rule, that a person
 * decided, and where to turn.
 */
export function renderPayoutRejection(decision: DecisionRecord, locale: Locale, appUrl: string): RenderedMail {
	const s = STRINGS[locale]
	const payout = decision.payout
	if (decision.action !== 'reject_payout' || !payout) throw new Error(`no payout rejection for ${decision.action}`)
	const tag = LOCALES.find((l) => l.code === locale)!.language
	const body = s.payoutRejected.body(
		formatDate(locale, payout.requestedAt),
		formatDate(locale, decision.createdAt),
		formatCoins(tag, payout.coins),
		formatPrice(tag, payout.amountMinor, payout.currency),
	)
	const parts: Part[] = [{ text: body }, { title: s.why, text: decision.explanation }]
	if (decision.ground !== 'none') {
		parts.push({ title: s.rule, text: s.ruleText(s.grounds[decision.ground]), link: { url: termsLink(appUrl, locale), label: s.terms } })
	}
	parts.push({ title: s.found, text: s.payoutRejected.found })
	parts.push({ title: s.appeal, text: s.appealText, link: { url: appealLink(appUrl, locale, decision.id), label: s.appealAction, button: true } })
	parts.push({ title: s.otherWays, text: s.otherWaysText })
	return compose(locale, s.payoutRejected.subject, parts, s.statementFooter, s['link-fallback'])
}

/** The outcome of an appeal, to the user who made it. */
export function renderAppealOutcome(decision: DecisionRecord, locale: Locale, appUrl: string): RenderedMail {
	const s = STRINGS[locale]
	const appealed = decision.appealed
	if (!appealed || !isAppealed(appealed.action) || (decision.action !== 'appeal_granted' && decision.action !== 'appeal_upheld')) {
		throw new Error(`no appeal outcome for ${decision.action}`)
	}
	const date = formatDate(locale, appealed.createdAt)
	const what = s.appealedWhat[appealed.action]
	const granted = decision.action === 'appeal_granted'
	const parts: Part[] = [{ text: granted ? s.granted.body(date, what) : s.upheld.body(date, what) }]
	if (granted) parts.push({ text: s.granted.lifted[appealed.action] })
	if (decision.dareDescription) parts.push({ title: s.theDare, text: decision.dareDescription, quote: true })
	parts.push({ title: s.why, text: decision.explanation })
	if (!granted && decision.ground !== 'none') {
		parts.push({ title: s.rule, text: s.ruleText(s.grounds[decision.ground]), link: { url: termsLink(appUrl, locale), label: s.terms } })
	}
	parts.push({ title: s.found, text: s.appealByPerson }, { title: s.otherWays, text: s.otherWaysText })
	return compose(locale, granted ? s.granted.subject : s.upheld.subject, parts, s.statementFooter, s['link-fallback'])
}

/** The outcome of a report, to the person who made it (DSA Art. 16(5)). */
export function renderReportOutcome(decision: DecisionRecord, locale: Locale, appUrl: string): RenderedMail {
	const s = STRINGS[locale]
	const r = s.report
	const parts: Part[] = [{ text: r.body(decision.dareDescription ?? '', formatDate(locale, decision.createdAt)) }]
	if (decision.action === 'dismiss_report') {
		parts.push({ text: r.dismissed }, { text: decision.explanation, quote: true })
	} else if (isMeasure(decision.action) && decision.ground !== 'none') {
		parts.push({ text: r.outcome[decision.action](s.grounds[decision.ground]), link: { url: termsLink(appUrl, locale), label: s.terms } })
	} else {
		throw new Error(`no report outcome for ${decision.action}`)
	}
	parts.push({ text: r.byPerson }, { title: s.otherWays, text: r.redress })
	return compose(locale, r.subject, parts, r.footer, s['link-fallback'])
}

/** What public.moderate answers: the decision and whom to tell. */
export interface ModerateResult {
	decision_id: string
	subject_id: string | null
	subject_email: string | null
	subject_language: string | null
	reporter_email: string | null
	reporter_language: string | null
}

/**
 * The decision as recorded, and the people whose reports it closed: a
 * removal closes every open report of the dare at once (public.moderate), so
 * all of them are told, each in the language they reported in. Read on the
 * owner connection: the decisions and reports are no API role's to read.
 */
export async function readDecision(db: Queryable, decisionId: string): Promise<{ decision: DecisionRecord; reporters: Array<{ email: string; language: Locale }> } | null> {
	const { rows } = await db.query<{
		id: string
		action: DecisionAction | PayoutDecision
		ground: Ground
		explanation: string
		dare_description: string | null
		automated_detection: boolean
		created_at: Date | string
		report_id: string | null
		appealed_action: DecisionAction | null
		appealed_at: Date | string | null
		payout_coins: number | null
		payout_amount_minor: number | null
		payout_currency: string | null
		payout_created_at: Date | string | null
	}>(
		`select m.id, m.action, m.ground, m.explanation, m.dare_description, m.automated_detection, m.created_at, m.report_id,
			a.action as appealed_action, a.created_at as appealed_at,
			p.coins as payout_coins, p.amount_minor as payout_amount_minor, p.currency as payout_currency, p.created_at as payout_created_at
		 from app_private.moderation_decisions m
		 left join app_private.moderation_decisions a on a.id = m.appeal_of
		 left join ledger.payouts p on p.id = m.payout_id
		 where m.id = $1`,
		[decisionId],
	)
	const row = rows[0]
	if (!row) return null
	// The reports this decision closed: decided in its transaction (one now()).
	const { rows: reporters } = await db.query<{ email: string; language: string }>(
		`select distinct on (lower(coalesce(r.reporter_email, u.email::text))) coalesce(r.reporter_email, u.email::text) as email, r.language
		 from app_private.reports r
		 join app_private.moderation_decisions m on m.id = $1
		 left join auth.users u on u.id = r.reporter_id
		 where r.decided_at = m.created_at
			 and (r.id = m.report_id or (m.action = 'remove_dare' and m.dare_id is not null and r.dare_id = m.dare_id))
			 and coalesce(r.reporter_email, u.email::text) is not null
		 order by lower(coalesce(r.reporter_email, u.email::text)), r.created_at`,
		[decisionId],
	)
	return {
		decision: {
			id: row.id,
			action: row.action,
			ground: row.ground,
			explanation: row.explanation,
			dareDescription: row.dare_description,
			automatedDetection: row.automated_detection,
			createdAt: new Date(row.created_at),
			reported: row.report_id !== null,
			appealed: row.appealed_action && row.appealed_at ? { action: row.appealed_action, createdAt: new Date(row.appealed_at) } : null,
			payout:
				row.payout_coins !== null && row.payout_amount_minor !== null && row.payout_currency && row.payout_created_at
					? { coins: row.payout_coins, amountMinor: row.payout_amount_minor, currency: row.payout_currency, requestedAt: new Date(row.payout_created_at) }
					: null,
		},
		reporters: reporters.map((r) => ({ email: r.email, language: isLocale(r.language) ? r.language : 'en' })),
	}
}

/** Actions whose outcome the reporters are told. */
const TOLD_TO_REPORTERS: readonly DecisionAction[] = ['remove_dare', 'dismiss_report', 'suspend_user', 'restrict_payouts']

/**
 * Sends a decision's mails through the platform's mail adapter, after the
 * decision is committed. A mail that fails is logged and nothing else: the
 * decision stands (it is recorded, and the affected user also reads it on
 * the appeal page).
 */
export async function sendDecisionMails(
	{ db, mail, appUrl, log = (message, error) => console.error(message, error) }: { db: Queryable; mail: MailAdapter; appUrl: string; log?: (message: string, error: unknown) => void },
	result: ModerateResult,
): Promise<void> {
	let read: Awaited<ReturnType<typeof readDecision>>
	try {
		read = await readDecision(db, result.decision_id)
	} catch (error) {
		log(`moderation: decision ${result.decision_id} recorded, its mails not sent`, error)
		return
	}
	if (!read) return
	const { decision, reporters } = read
	const sends: Array<{ to: string; kind: string; render: () => RenderedMail }> = []
	if (result.subject_email) {
		const locale = isLocale(result.subject_language) ? result.subject_language : 'en'
		if (isMeasure(decision.action)) {
			sends.push({ to: result.subject_email, kind: 'statement-of-reasons', render: () => renderStatementOfReasons(decision, locale, appUrl) })
		} else if (decision.action === 'reject_payout' && decision.payout) {
			sends.push({ to: result.subject_email, kind: 'statement-of-reasons', render: () => renderPayoutRejection(decision, locale, appUrl) })
		} else if (decision.action === 'appeal_granted' || decision.action === 'appeal_upheld') {
			sends.push({ to: result.subject_email, kind: 'appeal-outcome', render: () => renderAppealOutcome(decision, locale, appUrl) })
		}
	}
	if ((TOLD_TO_REPORTERS as readonly string[]).includes(decision.action)) {
		for (const reporter of reporters) {
			sends.push({ to: reporter.email, kind: 'report-outcome', render: () => renderReportOutcome(decision, reporter.language, appUrl) })
		}
	}
	const results = await Promise.allSettled(sends.map(async ({ to, kind, render }) => mail.send({ to, kind, ...render() })))
	results.forEach((r, i) => {
		if (r.status === 'rejected') log(`moderation: the ${sends[i]!.kind} mail of decision ${decision.id} was not sent`, r.reason)
	})
}

function layout(locale: Locale, title: string, blocks: string[], footer: string): string {
	return [
		'<!doctype html>',
		`<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>`,
		'<body style="margin:0;padding:24px;background:#f5f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#111111;line-height:1.5">',
		'<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
		'<p style="font-weight:700;font-size:18px;margin:0 0 24px">Dareboost</p>',
		...blocks,
		`<hr style="border:none;border-top:1px solid #e5e5e5;margin:24px 0"><p style="color:#777777;font-size:12px;margin:0">${escapeHtml(footer)}</p>`,
		'</div></body></html>',
	].join('\n')
}

function escapeHtml(value: string): string {
	return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;')
}
