// The command rules about the machine itself: listening sockets, raw devices, file systems and partition tables.
import commandDd from '../../rules/command-dd/index.js';
import commandMkfs from '../../rules/command-mkfs/index.js';
import commandNcListen from '../../rules/command-nc-listen/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(commandNcListen, {
  accept: [
    'nc -z localhost 6379',
    'socat - TCP:localhost:6379',
    'python3 -m json.tool < f.json',
    'python3 ./http.server.py',
    'php -r "echo 1;"',
    'echo httpd',
  ],
  reject: [
    { code: 'nc -lvp 4444', errors: [{ line: 1, column: 1 }] },
    // Servers by another name are listening sockets too.
    { code: 'socat TCP-LISTEN:4444,fork EXEC:/bin/sh', errors: [{ messageId: 'ncListen', line: 1, column: 1, endColumn: 40 }] },
    {
      code: 'python3 -m http.server 8000 &',
      errors: [{ messageId: 'server', line: 1, column: 1, endColumn: 28, message: /`python3` serving/ }],
    },
    { code: 'php -S 0.0.0.0:8080 -t .', errors: [{ messageId: 'server', line: 1, column: 1 }] },
    { code: 'ruby -run -e httpd . -p 8000', errors: [{ messageId: 'server', line: 1, column: 1 }] },
    { code: 'busybox httpd -f -p 8080', errors: [{ messageId: 'server', line: 1, column: 9 }] },
  ],
});

ruleTester(commandDd, {
  accept: ['echo dd if=/dev/zero'],
  reject: [
    { code: 'dd if=/dev/zero of=/dev/sda', errors: [{ line: 1, column: 1, endColumn: 28 }] },
    {
      name: 'writing a device from stdin, no if=',
      code: 'dd of=/dev/sda bs=1M < /dev/zero',
      errors: [{ messageId: 'ddOf', line: 1, column: 1, endColumn: 21 }],
    },
  ],
});

ruleTester(commandMkfs, {
  accept: ['echo mkfs', 'wipefs /dev/sdb', 'wipefs -n -a /dev/sdb', 'sgdisk -p /dev/sdb', 'parted -l', 'parted /dev/sdb print'],
  reject: [
    { code: 'mkfs.ext4 /dev/sdb1', errors: [{ line: 1, column: 1 }] },
    { code: 'mkdosfs -F 32 /dev/sdb1', errors: [{ line: 1, column: 1 }] },
    { code: 'mkntfs -f /dev/sdb1', errors: [{ line: 1, column: 1 }] },
    // Erasing signatures, blocks or the partition table destroys the device's contents as formatting does.
    { code: 'wipefs -a /dev/sdb', errors: [{ messageId: 'wipe', line: 1, column: 1, endColumn: 19 }] },
    { code: 'wipefs --all --force /dev/sdb', errors: [{ messageId: 'wipe', line: 1, column: 1 }] },
    { code: 'blkdiscard /dev/nvme0n1', errors: [{ messageId: 'wipe', line: 1, column: 1 }] },
    { code: 'sgdisk --zap-all /dev/sdb', errors: [{ messageId: 'wipe', line: 1, column: 1 }] },
    { code: 'sgdisk -Z /dev/sdb', errors: [{ messageId: 'wipe', line: 1, column: 1 }] },
    { code: 'parted -s /dev/sdb mklabel gpt', errors: [{ messageId: 'wipe', line: 1, column: 1 }] },
  ],
});
