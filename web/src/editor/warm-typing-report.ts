/**
 * What the typing warm-up (warm-typing.ts, decision 0154) says of itself, apart from it so that the keystroke
 * tools and the tests read it without the editor.
 */

/** How many keys the warm-up types: 30 warmed the first keys as well as 120 did (decision 0154). */
export const WARM_KEYS = 30;

/** The performance mark set when the warm-up ends; its detail is the WarmReport. */
export const WARM_MARK = 'quire:typing-warm-up';

/**
 * `keys`: keys typed; `grew`: characters the warm-up's page gained by them (the keys reached the editor);
 * `cpuMs`: the main thread's time in its idle callbacks; `stopped`: the person acted or left first; `failed`: it threw.
 */
export interface WarmReport { keys: number; grew: number; cpuMs: number; stopped: boolean; failed: boolean }
