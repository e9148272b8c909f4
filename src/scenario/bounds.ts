// The bounds on a scenario file, checked before anything is built from it, so that no file can make
// replsim run out of memory or stack: its size, how deep its maps and lists nest, the length of one
// value, and how large it grows once its aliases (`*name`) are expanded. A file past a bound is
// refused with the bound named, at the line where it is crossed.
//
// The value bound is the service's listener bound on a JSON string (max_json_string_value_length,
// 1,048,576), and the depth bound leaves room for a request body nested as deep as the service
// accepts (max_json_depth, 500) plus the scenario around it, so a scenario can still send the
// deepest body the service takes, and one just deeper to see it refused.
//
// Every walk here is iterative: a file nested 100,000 deep is measured, not recursed into. The YAML
// library's own composer recurses, so the depth is measured on its concrete syntax tree (built by
// its parser, which keeps its own stack) before the document is composed.
import { isAlias, isMap, isPair, isScalar, isSeq, Parser, type Document } from 'yaml';
import { DEFAULT_REQUEST_LIMITS } from '../kernel/http/limits.js';
import { bytesText } from '../kernel/files.js';

export const SCENARIO_BOUNDS = Object.freeze({
  /** Bytes of a scenario file (a 20,000-request recording is some 3 MiB; reading one of 8 MiB takes some 0.8 GB). */
  maxFileBytes: 8 << 20,
  /** Characters of one value (a key or a scalar): the service's max_json_string_value_length. */
  maxValueChars: DEFAULT_REQUEST_LIMITS.maxJsonStringValueLength,
  /** Maps and lists nested in one another: max_json_depth for a body, plus the scenario around it. */
  maxDepth: DEFAULT_REQUEST_LIMITS.maxJsonDepth + 20,
  /** Characters of the whole file once every alias is replaced by what it names. */
  maxExpandedChars: 16 << 20,
});

/** A bound crossed: where (an offset in the text) and what. */
export interface BoundProblem {
  offset: number;
  message: string;
}

/** The file's size; null when within bounds. */
export function sizeProblem(text: string, bounds = SCENARIO_BOUNDS): BoundProblem | null {
  // A string's length is at most its UTF-8 byte count: counting bytes only when it could matter.
  if (text.length > bounds.maxFileBytes / 3 && Buffer.byteLength(text) > bounds.maxFileBytes) {
    return { offset: 0, message: `the file is ${Buffer.byteLength(text).toLocaleString('en-US')} bytes, larger than a scenario file may be (${bytesText(bounds.maxFileBytes)})` };
  }
  return null;
}

/** The file's size and the nesting of its text; null when within bounds. */
export function textProblem(text: string, bounds = SCENARIO_BOUNDS): BoundProblem | null {
  return sizeProblem(text, bounds) ?? depthProblem(new Parser().parse(text), bounds);
}

/** The nesting of a text's concrete syntax tree (the YAML parser's tokens); null when within bounds. */
export function depthProblem(tokens: Iterable<unknown>, bounds = SCENARIO_BOUNDS): BoundProblem | null {
  // The concrete syntax tree: collections hold `items`, each with a key and a value (a document holds one value).
  type Cst = { type?: string; offset?: number; items?: { key?: unknown; value?: unknown }[]; value?: unknown };
  const nodes: Cst[] = [];
  const depths: number[] = [];
  for (const token of tokens) {
    nodes.push(token as Cst);
    depths.push(0);
  }
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    let depth = depths.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node.items)) {
      depth++;
      if (depth > bounds.maxDepth) return { offset: node.offset ?? 0, message: deeper(bounds) };
      for (const item of node.items) {
        for (const child of [item?.key, item?.value]) {
          if (child && typeof child === 'object') {
            nodes.push(child as Cst);
            depths.push(depth);
          }
        }
      }
    } else if (node.type === 'document' && node.value && typeof node.value === 'object') {
      nodes.push(node.value as Cst);
      depths.push(depth);
    }
  }
  return null;
}

const deeper = (bounds: typeof SCENARIO_BOUNDS) =>
  `maps and lists are nested more than ${bounds.maxDepth} deep here: a scenario file nests at most ${bounds.maxDepth} deep (a request body at most ${DEFAULT_REQUEST_LIMITS.maxJsonDepth}, the service's max_json_depth)`;

type Node = unknown;
const startOf = (node: Node): number => (node !== null && typeof node === 'object' && 'range' in node && Array.isArray(node.range) ? (node.range[0] as number) : 0);

/**
 * The composed document's values and its size and depth with every alias expanded; null when within
 * bounds. An alias counts as the whole node it names, each time it is used, so a megabyte aliased a
 * thousand times is a gigabyte, as it would become once read. `measured`, when given, is told the
 * whole document's expanded size (a file read in pieces adds its pieces' sizes).
 */
export function documentProblem(doc: Document, bounds = SCENARIO_BOUNDS, measured?: { chars: number }): BoundProblem | null {
  const anchors = new Map<string, Node>();
  /** Expanded size and height of each node whose walk is finished. */
  const size = new Map<Node, number>();
  const height = new Map<Node, number>();
  // Post-order walk in document order: a node is entered (its anchor registered, as YAML resolves an
  // alias to the nearest anchor before it), then its children, then it is finished.
  const stack: { node: Node; children: Node[] | null; next: number }[] = [{ node: doc.contents, children: null, next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const node = top.node;
    if (top.children === null) {
      top.children = [];
      if (isMap(node) || isSeq(node)) {
        if (node.anchor) anchors.set(node.anchor, node);
        top.children = node.items as Node[];
      } else if (isPair(node)) {
        top.children = [node.key, node.value];
      } else if (isScalar(node)) {
        if (node.anchor) anchors.set(node.anchor, node);
        const text = typeof node.value === 'string' ? node.value : String(node.value);
        if (text.length > bounds.maxValueChars) {
          return { offset: startOf(node), message: `a value of ${text.length.toLocaleString('en-US')} characters: a scenario file's values are at most ${bounds.maxValueChars.toLocaleString('en-US')} characters (the service's max_json_string_value_length)` };
        }
      }
    }
    if (top.next < top.children.length) {
      const child = top.children[top.next++];
      if (child !== null && child !== undefined && typeof child === 'object') stack.push({ node: child, children: null, next: 0 });
      continue;
    }
    stack.pop();
    let s: number;
    let h: number;
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      const ts = target === undefined ? undefined : size.get(target);
      if (ts === undefined) return { offset: startOf(node), message: `the alias *${node.source} names a node it is inside of (or no node): it cannot be expanded` };
      s = ts;
      h = height.get(target)!;
    } else if (isScalar(node)) {
      s = (typeof node.value === 'string' ? node.value : String(node.value)).length + 1;
      h = 0;
    } else {
      s = 2;
      h = 0;
      for (const child of top.children) {
        s += (size.get(child) ?? 1) + 1;
        h = Math.max(h, height.get(child) ?? 0);
      }
      if (isMap(node) || isSeq(node)) h++;
    }
    if (s > bounds.maxExpandedChars) {
      return { offset: startOf(node), message: `with its aliases expanded the file grows past ${bytesText(bounds.maxExpandedChars)} of text here: a scenario file may expand to at most that` };
    }
    if (h > bounds.maxDepth) return { offset: startOf(node), message: `with its aliases expanded, ${deeper(bounds)}` };
    size.set(node, s);
    height.set(node, h);
  }
  if (measured) measured.chars = size.get(doc.contents) ?? 0;
  return null;
}
