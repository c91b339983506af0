import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ErrorCode } from '../../schemas/error.ts';
import { invalidParameter } from './errors.ts';
import type { RoutePolicy } from './policy.ts';

/** A route described once: Fastify serves it and the OpenAPI document is generated from it. */
export interface RouteSpec<Q extends z.ZodObject = z.ZodObject, P extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST';
  url: string;
  summary: string;
  description?: string;
  tags: string[];
  query?: Q;
  params?: P;
  response: R;
  /** A request body other than JSON (the batch routes' CSV): its media type, for the OpenAPI document. */
  body?: { contentType: string; description: string };
  /** The success answer's media type when it is not JSON (its schema is then a string). */
  responseContentType?: string;
  errors: ErrorCode[];
  policy: RoutePolicy;
  handler: (ctx: { request: FastifyRequest; reply: FastifyReply; query: z.infer<Q>; params: z.infer<P> }) => Promise<z.infer<R> | FastifyReply>;
}

export type AnyRoute = RouteSpec<any, any, any>;

/** Parses a query or path object, turning the first problem into invalid_parameter naming the parameter. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const r = schema.safeParse(raw ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const rawObj = (raw ?? {}) as Record<string, unknown>;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    return invalidThrow(key, rawObj[key], `unknown parameter ${key}`);
  }
  const parameter = String(issue.path[0] ?? 'query');
  if (Array.isArray(rawObj[parameter])) return invalidThrow(parameter, rawObj[parameter], `${parameter} is given more than once`);
  return invalidThrow(parameter, rawObj[parameter], `${parameter}: ${issue.message}`);
}

function invalidThrow(parameter: string, value: unknown, message: string): never {
  throw invalidParameter(parameter, value, message);
}

export function registerRoute(app: FastifyInstance, route: AnyRoute, registry: AnyRoute[]): void {
  registry.push(route);
  app.route({
    method: route.method,
    url: route.url,
    config: { policy: route.policy },
    handler: async (request, reply) => {
      const query = route.query ? parseInput(route.query, request.query) : {};
      const params = route.params ? parseInput(route.params, request.params) : {};
      return route.handler({ request, reply, query, params });
    },
  });
}
