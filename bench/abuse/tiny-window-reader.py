# The slow reader of bench:abuse (issue 21 item 1), as a phone with a tiny receive window is: every `every_ms` a new
# connection whose receive buffer is set to 4 KB before it connects (so the window it advertises stays tiny), one
# GET of `path`, nothing read, the connection dropped after `gives_up_ms`. Node cannot set SO_RCVBUF on a TCP
# socket, hence this helper. Prints how many it opened when stopped (SIGTERM).
#   python3 tiny-window-reader.py <host> <port> <path> <every_ms> <gives_up_ms>
import signal
import socket
import sys
import time

host, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
every, gives_up = int(sys.argv[4]) / 1000, int(sys.argv[5]) / 1000
opened = []
count = 0
running = True


def stop(*_):
    global running
    running = False


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
next_at = time.monotonic()
while running:
    now = time.monotonic()
    while opened and opened[0][0] <= now:
        opened.pop(0)[1].close()
    if now >= next_at:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        try:
            s.connect((host, port))
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            opened.append((now + gives_up, s))
            count += 1
        except OSError:
            s.close()
        next_at += every
    time.sleep(max(0.0, min(next_at, opened[0][0] if opened else next_at) - time.monotonic()))
for _, s in opened:
    s.close()
print(count, flush=True)
