namespace RpcCompare.Testing;

/// <summary>A fresh directory under the temp directory, deleted on dispose.</summary>
public sealed class TemporaryDirectory : IDisposable
{
    public TemporaryDirectory(string prefix = "rpccompare-test-")
    {
        FullPath = Directory.CreateTempSubdirectory(prefix).FullName;
    }

    public string FullPath { get; }

    public string PathFor(string name) => Path.Combine(FullPath, name);

    public void Dispose()
    {
        if (Directory.Exists(FullPath))
        {
            Directory.Delete(FullPath, recursive: true);
        }
    }
}
