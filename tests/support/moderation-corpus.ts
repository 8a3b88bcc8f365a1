/**
 * Dares for the text filter's tests (docs/product.md §13.1; the terms are in
 * app/modules/moderation/terms.ts). `abusive` must each be held: each holds a
 * built-in term once normalised, written plainly or with an evasion. `harmless`
 * must each pass: none holds a term under the whole-word and prefix rules,
 * many of them near a term or near a word the list leaves out on purpose.
 *
 * Every note starts with the kind of writing, then a colon: plain, uppercase,
 * diacritics, dotless-i (Turkish İ/ı), digits, spaced, dotted, lookalike
 * (a Cyrillic letter inside a Latin word) or zero-width (U+200B inside a
 * word). Look-alike and zero-width characters are written as \u escapes so
 * that they stay visible.
 */

type Language = 'en' | 'de' | 'es' | 'tr'

export const abusive: { language: Language; text: string; note: string }[] = [
	{ language: 'en', text: 'Call your chat a bunch of faggots', note: 'plain: slur, "faggots"' },
	{ language: 'en', text: 'Call everyone who voted no a retard', note: 'plain: "retard"' },
	{ language: 'en', text: 'Type go kill yourself to whoever raids you next', note: 'plain: threat, "kill yourself" (two words in sequence)' },
	{ language: 'en', text: 'SCREAM MOTHERFUCKER AT THE NEXT BOSS', note: 'uppercase: prefix term motherfuck*' },
	{ language: 'en', text: 'Read chat out loud: this sh1t streamer', note: 'digits: sh1t → shit' },
	{ language: 'en', text: 'Call the enemy team f4gg0ts every round', note: 'digits: f4gg0ts → faggots' },
	{ language: 'en', text: 'Say f u c k you to your mods', note: 'spaced: f u c k → fuck' },
	{ language: 'en', text: 'Tell your ex she is one big c.u.n.t on stream', note: 'dotted: c.u.n.t → cunt' },
	{ language: 'en', text: 'Call your mod a wh\u043ere', note: 'lookalike: Cyrillic о (U+043E) in "whore"' },
	{ language: 'en', text: 'Tell the top donor to k\u200bys', note: 'zero-width: k\u200bys → kys' },

	{ language: 'de', text: 'Nenn deinen Mod einen Hurensohn', note: 'plain: "Hurensohn"' },
	{ language: 'de', text: 'Nenn den Gegner ein Arschgesicht', note: 'plain: compound, prefix term arsch*' },
	{ language: 'de', text: 'Sag dreimal laut Schei\u00dfe in die Kamera', note: 'diacritics: ß (U+00DF), ß → ss, prefix term scheiß*' },
	{ language: 'de', text: 'Sag dreimal laut Scheisse in die Kamera', note: 'diacritics: ss written for ß, prefix term scheiß*' },
	{ language: 'de', text: 'SCHREI FICK DICH IN DIE KAMERA', note: 'uppercase: "fick"' },
	{ language: 'de', text: 'Nenn die Raidleiterin eine F0tze', note: 'digits: F0tze → fotze' },
	{ language: 'de', text: 'Schreib W i c h s e r in den Chat', note: 'spaced: W i c h s e r → wichser' },
	{ language: 'de', text: 'Nenn deinen Mod einen S.p.a.s.t', note: 'dotted: S.p.a.s.t → spast' },
	{ language: 'de', text: 'Nenn deinen Bruder eine Missg\u0435burt', note: 'lookalike: Cyrillic е (U+0435) in "Missgeburt"' },
	{ language: 'de', text: 'Sag dem letzten Spender, er ist ein Wich\u200bser', note: 'zero-width: Wich\u200bser → wichser' },

	{ language: 'es', text: 'Llama malparido al que te hizo raid', note: 'plain: "malparido"' },
	{ language: 'es', text: 'Dile a tu moderador que es un pendejo', note: 'plain: prefix term pendej*' },
	{ language: 'es', text: 'Dile maricon al rival', note: 'diacritics: accent left out of "maricón"' },
	{ language: 'es', text: 'GRITA VETE A LA MIERDA AL CHAT', note: 'uppercase: "vete a la mierda", "mierda"' },
	{ language: 'es', text: 'Grita hij0 de put4 en directo', note: 'digits: hij0 de put4 → hijo de puta' },
	{ language: 'es', text: 'Escribe p u t a en el chat', note: 'spaced: p u t a → puta' },
	{ language: 'es', text: 'Dile al chat que son unos c.a.b.r.o.n.e.s', note: 'dotted: c.a.b.r.o.n.e.s → cabrones' },
	{ language: 'es', text: 'Llama z\u043erra a tu ex', note: 'lookalike: Cyrillic о (U+043E) in "zorra"' },
	{ language: 'es', text: 'Dile gili\u200bpollas al último donante', note: 'zero-width: gili\u200bpollas → gilipollas' },

	{ language: 'tr', text: 'Chate amk diye bağır', note: 'plain: "amk"' },
	{ language: 'tr', text: 'Kameraya ananı sikeyim de', note: 'plain: "sikeyim"' },
	{ language: 'tr', text: 'Yayında SİKTİR GİT diye bağır', note: 'dotless-i: uppercase with dotted İ, SİKTİR → siktir' },
	{ language: 'tr', text: 'Rakibine sıktır git de', note: 'dotless-i: ı for i, sıktır → siktir' },
	{ language: 'tr', text: 'Yayinda yavsak diye bagir', note: 'diacritics: ş and ğ left out, yavsak → prefix term yavşak*' },
	{ language: 'tr', text: 'Modlara 0r0spu çocuğu de', note: 'digits: 0r0spu → orospu' },
	{ language: 'tr', text: 'Sohbete y a v ş a k yaz', note: 'spaced: y a v ş a k → yavşak' },
	{ language: 'tr', text: 'Son bağışçıya a.m.k yaz', note: 'dotted: a.m.k → amk' },
	{ language: 'tr', text: 'Rakibine pezev\u0435nk de', note: 'lookalike: Cyrillic е (U+0435) in "pezevenk"' },
	{ language: 'tr', text: 'Moderatöre ib\u200bne de', note: 'zero-width: ib\u200bne → ibne' },
]

export const harmless: { language: Language; text: string; note: string }[] = [
	{ language: 'en', text: 'Drive to Scunthorpe and film the town sign', note: 'plain: "cunt" inside a word' },
	{ language: 'en', text: 'Shout I am on a boat every time you jump', note: 'plain: "am" (Turkish list) is left out' },
	{ language: 'en', text: 'Applaud the raider for that class act', note: 'plain: "ass" inside a word' },
	{ language: 'en', text: 'Play the next level as an assassin', note: 'plain: "ass" inside a word' },
	{ language: 'en', text: 'Read a page of Dickens in a posh accent', note: 'plain: "dick" inside a word' },
	{ language: 'en', text: 'Mix a cocktail with whatever is in the fridge', note: 'plain: "cock" inside a word' },
	{ language: 'en', text: 'Post a pic of your cat', note: 'plain: Turkish "piç" alone is not a term (it would be "pic")' },
	{ language: 'en', text: 'I got it, I have gotten better at this game', note: 'plain: Turkish "göt", "götten" are left out' },
	{ language: 'en', text: 'Stop being so fickle and pick one main', note: 'plain: no prefix term fick*' },
	{ language: 'en', text: 'Cook shitake mushrooms live', note: 'plain: no prefix term shit*' },
	{ language: 'en', text: 'Play the next round in hardcore mode', note: 'plain: "hardcore" is left out' },

	{ language: 'de', text: 'Fahr nach Amsterdam und grüß den Chat', note: 'plain: "am" inside a word' },
	{ language: 'de', text: 'Spiel Schwanensee auf der Blockflöte', note: 'plain: no term begins "Schwanensee"' },
	{ language: 'de', text: 'Koch Spaghetti mit Hackfleisch', note: 'plain: "Hackfresse" is whole-word only' },
	{ language: 'de', text: 'Zieh eine Fratze in die Kamera', note: 'plain: "Fratze" is left out' },
	{ language: 'de', text: 'Sag, dass du zu dick für den Stuhl bist', note: 'plain: English "dick" is left out' },
	{ language: 'de', text: 'Zeig uns dein Ass im Ärmel', note: 'plain: English "ass" is left out' },
	{ language: 'de', text: 'Sing mit den Vögeln im Garten', note: 'plain: "vögeln" is left out' },
	{ language: 'de', text: 'Bring dich in Position und warte auf den Boss', note: 'plain: "bring dich um" needs all three words' },

	{ language: 'es', text: 'Pasa la pelota al portero', note: 'plain: everyday sentence' },
	{ language: 'es', text: 'Cómete un cono de helado de fresa', note: 'plain: "coño" is left out (it would be "cono")' },
	{ language: 'es', text: 'Tráeme el martillo del garaje', note: 'plain: "martillo" is left out' },
	{ language: 'es', text: 'Dibuja un gato negro en directo', note: 'plain: "negro" is left out' },
	{ language: 'es', text: 'Saluda a Kike de parte del chat', note: 'plain: "kike" is left out (a Spanish first name)' },
	{ language: 'es', text: 'Hazte un bocadillo de pan Bimbo', note: 'plain: "bimbo" is left out' },
	{ language: 'es', text: 'Lee en voz alta el folleto de tu ciudad', note: 'plain: no prefix term foll*' },
	{ language: 'es', text: 'Sobrevive al infierno del último nivel', note: 'plain: "infierno" is left out' },

	{ language: 'tr', text: 'Bir sikke at, yazı mı tura mı?', note: 'plain: "sikke" is not a term' },
	{ language: 'tr', text: 'Sık sık su iç', note: 'plain: "sık" would be "sik", left out' },
	{ language: 'tr', text: 'Sıkı bir maç oyna', note: 'plain: "sıkı" would be "siki", left out' },
	{ language: 'tr', text: 'Dişlerinizi sıkın ve bossu yenin', note: 'plain: "sıkın" would be "sikin", left out' },
	{ language: 'tr', text: 'Şike yapmadan adil bir turnuva oyna', note: 'plain: "şike" would be "sike", left out' },
	{ language: 'tr', text: 'Ananı ara ve selam söyle', note: 'plain: "ananı" alone is ordinary' },
	{ language: 'tr', text: 'Bugün hava çok güzel, dışarı çık', note: 'plain: everyday sentence' },
]
