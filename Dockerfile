# The API server in a container: the production way to run it beyond one process (README,
# "Running in containers"). Node 22 LTS: the version every dependency supports (oidc-provider 9
# warns on Node 20, which reached its end of life). Data (Parquet tables) is a volume written by
# the ingest jobs; state is PostgreSQL (DATABASE_URL), rate limits Redis (REDIS_URL).
FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
COPY package.json package-lock.json ./
# tsx runs the TypeScript sources; dev dependencies (tests, browsers) are left out.
RUN npm ci --omit=dev --no-audit --no-fund
COPY schemas ./schemas
COPY datasets ./datasets
COPY ingest ./ingest
COPY api ./api
COPY tsconfig.json ./
VOLUME ["/data"]
EXPOSE 3000
USER node
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npx", "tsx", "api/main.ts"]
