namespace RpcCompare.Testing;

/// <summary>Files of the checkout a test runs from (scripts, checked-in service descriptions).</summary>
public static class RepositoryPaths
{
    private static readonly Lazy<string> LazyRoot = new(FindRoot);

    /// <summary>The folder holding RpcCompare.sln, found upwards from the test assembly.</summary>
    public static string Root => LazyRoot.Value;

    public static string Combine(params string[] parts) => Path.Combine([Root, .. parts]);

    private static string FindRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "RpcCompare.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("RpcCompare.sln not found above the test's folder.");
    }
}
