using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace RpcCompare.Service.Internal;

/// <summary>
/// The few Linux calls .NET does not expose: openat(2) with O_NOFOLLOW and O_PATH, mkdirat(2),
/// unlinkat(2). Linux only; <see cref="RootedFiles"/> calls none of them elsewhere.
/// </summary>
internal static partial class Libc
{
    public const int AtCurrentDirectory = -100; // AT_FDCWD

    public const int ENOENT = 2;
    public const int EEXIST = 17;
    public const int ENOTDIR = 20;
    public const int EISDIR = 21;
    public const int ELOOP = 40;

    public const int ReadOnly = 0;    // O_RDONLY
    public const int WriteOnly = 1;   // O_WRONLY
    public const int ReadWrite = 2;   // O_RDWR
    public const int Create = 0x40;   // O_CREAT
    public const int Exclusive = 0x80; // O_EXCL
    public const int CloseOnExec = 0x80000; // O_CLOEXEC
    public const int PathOnly = 0x200000; // O_PATH

    // O_DIRECTORY and O_NOFOLLOW are the two flags whose values differ by architecture: Arm and
    // PowerPC define their own, every other Linux port .NET runs on takes the generic ones.
    // Stryker disable all : one machine has one architecture; the tests on x64 cannot tell the Arm values apart
    private static readonly bool s_armLayout = RuntimeInformation.ProcessArchitecture is
        Architecture.Arm or Architecture.Arm64 or Architecture.Armv6 or Architecture.Ppc64le;

    public static int Directory { get; } = s_armLayout ? 0x4000 : 0x10000;

    public static int NoFollow { get; } = s_armLayout ? 0x8000 : 0x20000;
    // Stryker restore all

    /// <summary>The file's mode before the umask, as .NET creates files and directories.</summary>
    public const uint DefaultFileMode = 0x1B6;      // 0666
    public const uint DefaultDirectoryMode = 0x1FF; // 0777

    [LibraryImport("libc", EntryPoint = "openat", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int OpenAt(int directory, string path, int flags, uint mode);

    [LibraryImport("libc", EntryPoint = "openat", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int OpenAt(SafeFileHandle directory, string name, int flags, uint mode);

    [LibraryImport("libc", EntryPoint = "mkdirat", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int MakeDirectoryAt(SafeFileHandle directory, string name, uint mode);

    [LibraryImport("libc", EntryPoint = "unlinkat", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int UnlinkAt(SafeFileHandle directory, string name, int flags);
}
