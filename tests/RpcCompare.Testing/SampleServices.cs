namespace RpcCompare.Testing;

/// <summary>
/// samples/RpcCompare.Samples.Services, the team's assembly the docs walk through: built before
/// every test project (RpcCompare.Testing's project reference) but never referenced, so tests
/// load it by path from its own output folder as the host and runner load a team's assembly.
/// </summary>
public static class SampleServices
{
    /// <summary>The sample's .dll in the configuration the tests were built in.</summary>
    public static string AssemblyPath
    {
        get
        {
            // Tests run from bin/<Configuration>/<framework>/; the sample builds into the same shape.
            var framework = new DirectoryInfo(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory));
            var configuration = framework.Parent!.Name;
            return RepositoryPaths.Combine("samples", "RpcCompare.Samples.Services", "bin", configuration, framework.Name, "RpcCompare.Samples.Services.dll");
        }
    }
}
