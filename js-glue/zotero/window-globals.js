// The web globals the AI SDK needs, given to a Zotero plugin's scope from the current main window.
//
// Works when bundled by esbuild as an IIFE: no window is read until a stand-in is used.

import { codedError } from '../util/coded-error.js';
import { liveWindow } from './live-window.js';

/**
 * What the AI SDK (5, 6, 7) uses bare and Zotero's plugin sandbox lacks: web streams, abort
 * signals, DOMException and structuredClone (docs/zotero-runtime.md measures which, per major).
 */
export const WINDOW_GLOBALS = Object.freeze([
  'ReadableStream', 'TransformStream', 'WritableStream', 'TextDecoderStream', 'TextEncoderStream',
  'AbortController', 'AbortSignal', 'DOMException', 'structuredClone',
]);

/**
 * What installWindowGlobals installed.
 * @typedef {object} WindowGlobals
 * @property {string[]} installed The names given stand-ins (those the scope lacked).
 * @property {() => any} window The current main window; throws code `no-main-window` when none is open.
 * @property {() => void} uninstall Removes the stand-ins (plugin shutdown).
 */

/**
 * Gives the plugin scope the web globals the AI SDK needs, taken from Zotero's CURRENT main window
 * at each use: each name becomes a stable stand-in whose `new`, call, static members (such as
 * `AbortSignal.timeout`) and `instanceof` go to `getWindow()`'s own at that moment. A turn after the
 * window closed and another opened uses the new window's classes (copies taken once belong to a
 * window that may be gone: every later turn hung), and `class X extends TransformStream` in the
 * SDK's code (evaluated when its bundle loads) needs no window: a plugin can start with none. With
 * no window open a use throws code `no-main-window`. A name the scope already has is left alone.
 * Call it before the AI SDK's code runs.
 *
 *   installWindowGlobals(globalThis, () => Zotero.getMainWindow());
 *
 * @param {object} scope the plugin's global (globalThis in its bundle)
 * @param {() => unknown} getWindow the current main window, or null
 * @param {readonly string[]} [names] WINDOW_GLOBALS by default
 * @returns {WindowGlobals}
 */
export function installWindowGlobals(scope, getWindow, names = WINDOW_GLOBALS) {
  if (!scope || (typeof scope !== 'object' && typeof scope !== 'function')) {
    throw codedError('invalid-argument', 'installWindowGlobals: scope must be the plugin\'s global object');
  }
  if (typeof getWindow !== 'function') {
    throw codedError('invalid-argument', 'installWindowGlobals: getWindow must be a function returning the main window (Zotero.getMainWindow)');
  }
  const current = () => {
    let win;
    try {
      win = liveWindow(getWindow());
    } catch {
      win = null;
    }
    if (!win) {
      throw codedError('no-main-window', 'no main window is open: the AI SDK takes its streams and abort signals from one (open a Zotero window and try again)');
    }
    return win;
  };
  /** @type {string[]} */
  const installed = [];
  /** @type {Map<string, unknown>} */
  const standIns = new Map();
  const target = /** @type {Record<string, unknown>} */ (scope);
  for (const name of names) {
    const own = Object.getOwnPropertyDescriptor(target, name);
    if (own && (!('value' in own) || own.value !== undefined)) continue; // the scope's own
    const standIn = windowStandIn(name, current);
    Object.defineProperty(target, name, { configurable: true, writable: true, enumerable: false, value: standIn });
    standIns.set(name, standIn);
    installed.push(name);
  }
  return {
    installed,
    window: current,
    uninstall() {
      for (const [name, standIn] of standIns) {
        if (target[name] === standIn) delete target[name];
      }
    },
  };
}

/**
 * A function standing for `current()[name]`: constructing it constructs the window's class (a
 * subclass's `super(...)` too: the instance is the window's, made with the subclass's arguments),
 * calling it calls the window's function, and every other member is read from the window's at that
 * moment; only `prototype` is its own, so `class X extends` it works with no window.
 * @param {string} name @param {() => any} current
 */
function windowStandIn(name, current) {
  const stand = function () {};
  Object.defineProperty(stand, 'name', { value: name });
  return new Proxy(stand, {
    construct: (_, args) => Reflect.construct(current()[name], args),
    apply: (_, thisArg, args) => Reflect.apply(current()[name], thisArg, args),
    get: (fn, property) => {
      if (property === 'prototype') return fn.prototype;
      if (property === Symbol.hasInstance) return (/** @type {unknown} */ value) => isInstance(value, name, current);
      const real = current()[name];
      const member = real[property];
      return typeof member === 'function' ? member.bind(real) : member;
    },
    has: (_, property) => property in current()[name],
  });
}

/**
 * `value instanceof current()[name]`, also with no window open: the AI SDK asks `error instanceof
 * DOMException` when a request ends, which after the last window closed threw `no-main-window`
 * inside its own error handling, a rejection nobody handles. With no live window the value's
 * prototype chain is read for a class of that name (a dead object has none).
 * @param {unknown} value @param {string} name @param {() => any} current
 */
function isInstance(value, name, current) {
  let Class;
  try {
    Class = current()[name];
  } catch {
    return hasClassNamed(value, name);
  }
  return value instanceof Class;
}

/** @param {unknown} value @param {string} name */
function hasClassNamed(value, name) {
  try {
    for (let proto = value === null || value === undefined ? null : Object.getPrototypeOf(Object(value)); proto; proto = Object.getPrototypeOf(proto)) {
      if (Object.prototype.hasOwnProperty.call(proto, 'constructor') && proto.constructor?.name === name) return true;
    }
  } catch {
    // a dead object (its window is gone)
  }
  return false;
}
