"""docs/deploy/nginx.conf as the tests run it: the recipe's own file with its upstreams, ports
and certificate replaced, under a main configuration of a user's own (nginx in the foreground,
its files in a temporary folder); and a self-signed certificate for it."""
import subprocess
from pathlib import Path

RECIPE = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "nginx.conf"


def self_signed(tmp_path):
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=layout.example.org",
                    "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)
    return certificate, key


def recipe_site(upstream_ports, tls_port, plain_port, certificate, key):
    """The recipe with its two upstreams on `upstream_ports`, TLS on `tls_port`, the plain
    redirect on `plain_port` (all on 127.0.0.1) and this certificate."""
    site = RECIPE.read_text()
    for default, port in zip((8080, 8081), upstream_ports):
        site = site.replace(f"server 127.0.0.1:{default};", f"server 127.0.0.1:{port};")
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{tls_port} ssl;")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{plain_port};")
    site = site.replace("/etc/letsencrypt/live/layout.example.org/fullchain.pem", str(certificate))
    return site.replace("/etc/letsencrypt/live/layout.example.org/privkey.pem", str(key))


class RunningNginx:
    """nginx in the foreground with the recipe's site (`site`: its text), as a user may run it."""

    def __init__(self, tmp_path, site):
        folder = tmp_path / "nginx"
        folder.mkdir()
        folder.chmod(0o777)
        (folder / "site.conf").write_text(site)
        (folder / "nginx.conf").write_text(f"""daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
""")
        checked = subprocess.run(["nginx", "-t", "-c", str(folder / "nginx.conf")], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        self.folder = folder
        self.process = subprocess.Popen(["nginx", "-c", str(folder / "nginx.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def close(self):
        self.process.terminate()
        self.process.wait(10)
