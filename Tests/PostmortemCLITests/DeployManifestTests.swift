import Foundation
import TestSupport
import Testing

/// deploy/kubernetes, rendered as `kubectl apply -k` renders it and held to the Kubernetes OpenAPI schemas
/// (kubernetes-validate, strict: no field the schema lacks), and tied to the server it runs: the probes ask
/// `/health` on the port the image's server listens on, and the Service sends traffic there.
@Suite("deploy/: Kubernetes manifests")
struct DeployManifestTests {
    static let folder = Paths.packageRoot.appendingPathComponent("deploy/kubernetes")

    /// The kustomization rendered: by `kubectl kustomize` when kubectl is there, else its resources one after
    /// another (all this kustomization does: it lists resources and nothing else, which the test checks).
    static func rendered(_ folder: URL) throws -> String {
        if let kubectl = Paths.executable(named: "kubectl") {
            let result = try Command.run(kubectl, ["kustomize", folder.path])
            try #require(result.status == 0, "kubectl kustomize: \(result.standardError)")
            return result.standardOutput
        }
        let kustomization = try String(contentsOf: folder.appendingPathComponent("kustomization.yaml"), encoding: .utf8)
        let lines = kustomization.split(separator: "\n").filter { !$0.hasPrefix("#") }
        try #require(
            lines.allSatisfy {
                $0.hasPrefix("apiVersion:") || $0.hasPrefix("kind:") || $0 == "resources:" || $0.hasPrefix("  - ")
            },
            "the kustomization does more than list resources: kubectl is needed to render it")
        return try lines.filter { $0.hasPrefix("  - ") }.map {
            try String(contentsOf: folder.appendingPathComponent(String($0.dropFirst(4))), encoding: .utf8)
        }
        .joined(separator: "\n---\n")
    }

    /// kubernetes-validate's verdict on `manifests` (Tests/install-oracles.sh installs it).
    static func validate(_ manifests: String, name: String) throws -> CommandResult {
        let oracle = Paths.packageRoot.appendingPathComponent(".build/oracles/python")
        let validator = oracle.appendingPathComponent("bin/kubernetes-validate").path
        try #require(
            FileManager.default.isExecutableFile(atPath: validator),
            "kubernetes-validate is needed (Tests/install-oracles.sh, run by make test)")
        let file = Fixtures.scratchDirectory("deploy") + "/" + name
        try manifests.write(toFile: file, atomically: true, encoding: .utf8)
        return try Command.run(validator, ["--strict", file], environment: ["PYTHONPATH": oracle.path])
    }

    @Test func theManifestsAreValidKubernetesObjects() throws {
        let manifests = try Self.rendered(Self.folder)
        let result = try Self.validate(manifests, name: "rendered.yaml")
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let passed = result.outputLines.filter { $0.contains(" passed for resource ") }.map {
            $0.components(separatedBy: " passed for resource ")[1].components(separatedBy: "/")[0]
        }
        #expect(
            Set(passed) == ["configmap", "persistentvolumeclaim", "deployment", "service", "horizontalpodautoscaler"],
            "\(result.standardOutput)")
        // A misspelt field fails: the check can fail.
        let misspelt = try Self.validate(
            manifests.replacingOccurrences(of: "containerPort:", with: "containerPorts:"), name: "misspelt.yaml")
        #expect(misspelt.status != 0, "a misspelt field passed: \(misspelt.standardOutput)")
    }

    @Test func probesAndServiceReachTheServerTheImageStarts() throws {
        let manifests = try Self.rendered(Self.folder)
        let dockerfile = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("deploy/Dockerfile"), encoding: .utf8)
        let entrypoint = try #require(
            dockerfile.split(separator: "\n").first { $0.hasPrefix("ENTRYPOINT") }.map(String.init))
        let port = try #require(entrypoint.firstMatch(of: /"--port", "(\d+)"/).map { String($0.1) }, "\(entrypoint)")
        #expect(entrypoint.contains(#""--host", "0.0.0.0""#), "the server in a container listens on every interface")
        #expect(manifests.contains("containerPort: \(port)"), "the container port is the server's")
        #expect(manifests.components(separatedBy: "path: /health").count - 1 >= 2, "readiness and liveness ask /health")
        #expect(
            manifests.contains("targetPort: http") && manifests.contains("name: http"),
            "the Service sends traffic to the named port")
    }

    /// The image's build stage installs every package the Makefile's setup installs for building: one missing there
    /// (a compression library's headers, say) fails `make release` inside `docker build` alone.
    @Test func theImageBuildInstallsTheBuildPackages() throws {
        let makefile = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        let dockerfile = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("deploy/Dockerfile"), encoding: .utf8)
        let line = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("BUILD_PACKAGES :=") })
        let packages = line.split(separator: " ").dropFirst(2)
        #expect(packages.count >= 5, "\(line)")
        let installed = Set(dockerfile.split(whereSeparator: { $0.isWhitespace || $0 == "\\" }))
        for package in packages {
            #expect(installed.contains(package), "deploy/Dockerfile does not install \(package)")
        }
    }
}
