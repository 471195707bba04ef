// Calls into the caller's objects (a store, a signal, options): a getter that throws reads as
// absent, a method is called on its object, an async step gives `{ value }` or `{ thrown, error }`.
// Shared by the runner and the session read, which must not trust what the app hands in.
import { codedError } from './coded-error.js';

/**
 * `{ value }` or `{ thrown: true, error }` of an async step.
 * @template T @param {() => T | Promise<T>} step
 * @returns {Promise<{ value: T, thrown?: undefined, error?: undefined } | { thrown: true, error: unknown, value?: undefined }>}
 */
export async function attempt(step) {
  try {
    return { value: await step() };
  } catch (error) {
    return { thrown: true, error };
  }
}

/** `target[name]`, or `undefined` when reading it throws. @param {any} target the caller's object @param {string | symbol} name */
export function get(target, name) {
  try {
    return target[name];
  } catch {
    return undefined;
  }
}

/** @param {unknown} value @returns {value is object} */
export function isObject(value) {
  return typeof value === 'object' && value !== null;
}

/** @param {unknown} target @param {string} name */
export function hasMethod(target, name) {
  return isObject(target) && typeof get(target, name) === 'function';
}

/** @param {unknown} target @param {string} name @param {unknown[]} args @returns {any} what the caller's method returns */
export function callSync(target, name, args) {
  const method = isObject(target) || typeof target === 'function' ? get(target, name) : undefined;
  if (typeof method !== 'function') throw codedError('invalid-options', `${name} is not a function`);
  return method.apply(target, args);
}

/**
 * Calls `target[name](...args)` and turns what it returns into a promise (a plain value resolves).
 * @param {unknown} target @param {string} name @param {unknown[]} args @returns {Promise<any>}
 */
export function callMethod(target, name, args) {
  return Promise.resolve(callSync(target, name, args));
}

/** A plain copy: the store and the outcome get objects of their own. @template T @param {T} value @returns {T} */
export function plainCopy(value) {
  return JSON.parse(JSON.stringify(value));
}
