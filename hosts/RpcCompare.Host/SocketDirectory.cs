namespace RpcCompare.Host;

/// <summary>
/// The private directory the host's socket files live in: created 0700 so no other user can
/// connect or replace a socket, and removed on shutdown when the host created it. A directory that
/// already exists (a container's shared volume) keeps the mode its owner gave it.
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
            if (_owned)
            {
                CreatePrivate(FullPath);
            }
        }
    }

    public string FullPath { get; }

    private static void CreatePrivate(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            Directory.CreateDirectory(path);
        }
        else
        {
            Directory.CreateDirectory(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }
    }

    public string PathFor(string fileName) => Path.Combine(FullPath, fileName);

    public void Dispose()
    {
        if (_owned && Directory.Exists(FullPath))
        {
            Directory.Delete(FullPath, recursive: true);
        }
    }
}
