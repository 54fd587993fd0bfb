namespace RpcCompare.Host;

/// <summary>
/// The private directory the host's socket files live in: created 0700 so no other user can
/// connect or replace a socket, and removed on shutdown when the host created it.
/// </summary>
internal sealed class SocketDirectory : IDisposable
{
    private readonly bool _owned;

    public SocketDirectory(string? configured)
    {
        if (string.IsNullOrEmpty(configured))
        {
            // mkdtemp(3) underneath: created with mode 0700 and a name nobody can predict.
            FullPath = Directory.CreateTempSubdirectory("rpccompare-sockets-").FullName;
            _owned = true;
        }
        else
        {
            FullPath = Path.GetFullPath(configured);
            _owned = !Directory.Exists(FullPath);
            Directory.CreateDirectory(FullPath);
        }

        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(FullPath, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }
    }

    public string FullPath { get; }

    public string PathFor(string fileName) => Path.Combine(FullPath, fileName);

    public void Dispose()
    {
        if (_owned && Directory.Exists(FullPath))
        {
            Directory.Delete(FullPath, recursive: true);
        }
    }
}
