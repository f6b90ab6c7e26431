# Cases gitleaks gets wrong.
password = "hunter#2@Xq9!zL"
db_password = "JfDXW#6l93@zShnw"
GITLAB_TOKEN = "glpat-OoaSE6o36NDUvBf5Fpn-"
maps_key = "AIzaSy8jtRGUrrS63wHRpusDA6f6Ew8C4E1blY-"
url = "postgres://report:hbpX0toP#nXfvXc@m2nl@warehouse.internal/reports"
admin_url = "https://admin:R96Xym9Y#YhDBty@6IMS@admin.internal/"

# And cases it must not fire on.
plain = "postgres://user@host/db"
templated = "postgres://user:${DB_PASS}@host/db"
placeholder = "postgres://user:password@host/db"
formatted = f"postgres://user:{password}@host/db"
pct = "postgres://%s:%s@%s/db" % (u, p, h)
